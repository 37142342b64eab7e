ANTWERP, Belgium (CNN) -- Thousands of dockworkers walked off the job at the port of Antwerp on Monday, halting container traffic at Europe's second-largest port in a dispute over automation and pensions.

The 48-hour strike was called by the Federation of Port and Transport Workers (FPTW), which says plans by terminal operator Scheldt Container Group (SCG) to introduce driverless cranes threaten about 1,200 jobs.

FPTW leader Koen Verhaegen told a rally of some 2,000 workers outside the port's main gate that the union would not "let robots replace families." Belgian Labour Minister Frédéric Lambotte called on both sides to return to negotiations.

By Monday afternoon, at least 23 container ships were anchored off the coast waiting for berths, and long lines of trucks had formed on motorways leading to the docks.

Els Mertens, speaking for SCG, said the company had offered to retrain every employee affected by the new equipment and had promised that nobody would be forced out before retirement age. "We cannot stand still while our competitors invest in modern technology," Mertens said.

Verhaegen dismissed that offer as vague, saying the operator had refused to put its guarantees in writing. The union leader also accused SCG management of quietly planning to cut early-retirement benefits that dockers have enjoyed for decades.

Verhaegen, a former crane operator who has led the FPTW since 2010, said members had voted overwhelmingly for the strike in a ballot held last week.

Shipping line Meridian Container Lines said it was diverting two vessels to Rotterdam and warned customers to expect delays of up to a week for goods bound for Belgium, France and Germany.

Lambotte, who met representatives of the FPTW and SCG separately on Sunday evening, said he would invite both parties to a mediation session at his ministry in Brussels on Wednesday. A prolonged stoppage could cost the Belgian economy tens of millions of euros each day, the minister warned.

Exporters estimated that more than €40 million worth of goods had been stranded on the quayside in Antwerp by Monday evening, including fresh fruit, chemicals and car parts.

Many of the striking workers wore orange vests and carried banners reading "People before profit" as they marched past the SCG headquarters. Police said the protest was peaceful and that nobody had been arrested.

Verhaegen said the FPTW was prepared to extend the walkout to a full week if SCG did not withdraw its crane plans before the talks in Brussels.

Mertens said the company would attend Lambotte's talks "with an open mind" but would not abandon investments it considers vital to Antwerp's future.

@highlight

Dockworkers strike at the port of Antwerp over automation plans

@highlight

Federation of Port and Transport Workers says 1,200 jobs at risk

@highlight

Scheldt Container Group spokeswoman Els Mertens defends driverless cranes

@highlight

Labour Minister Frédéric Lambotte calls both sides to mediation in Brussels
