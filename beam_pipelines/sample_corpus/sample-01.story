LYON, France (CNN) -- Claire Montvallon, a former schoolteacher from Grenoble, won control of the Rhône-Alpes regional council on Sunday after her Civic Regional Union (CRU) took 41 percent of the vote in a runoff marked by unusually high turnout.

Montvallon defeated council president Bertrand Ollivier of the Green Progress Movement (GPM), who had led the region for two terms. Official figures published by the Regional Electoral Commission (REC) showed that 63 percent of registered voters cast ballots, the highest share for a regional poll in France since 1998.

The result is being watched closely in the capital, where Prime Minister Étienne Roubaix faces a national parliamentary election next spring.

Speaking to cheering supporters in Lyon late on Sunday night, Montvallon promised to freeze public transport fares for three years and to open twelve vocational colleges across the valley. "People here told us they were tired of waiting for trains that never come," she said. "We heard them, and tomorrow we start working."  Watch Montvallon's victory speech »

Ollivier conceded shortly after midnight, telling a subdued crowd of activists that the GPM would remain a constructive voice in opposition. The outgoing leader said his movement had been punished for an unpopular levy on diesel vehicles introduced last year.

The CRU campaign concentrated heavily on small rural towns, where bus routes have been cut and several maternity wards have closed. Analysts credited that strategy with helping Montvallon overturn a deficit of almost nine points in opinion surveys taken during September.

"This was a vote about distance, about how far people feel from the decisions that shape their lives," said Agnès Delorme, a political scientist at the University of Lyon. Delorme noted that the CRU had won in 14 of the 17 largest towns outside the regional capital.

The REC said it had received 212 formal complaints about irregularities at polling stations, most concerning late-opening offices and missing ballot papers in mountain villages. None of those complaints appeared serious enough to alter the outcome in any district, according to a spokesman for the REC.

Roubaix congratulated Montvallon in a brief written statement but declined to answer questions from reporters about what her victory might mean for his government. Members of his own centrist coalition privately described the Grenoble politician's win as an alarm bell ahead of next year's vote.

Ollivier, 58, has not said whether he intends to keep his seat in the assembly, and several GPM officials suggested the party would hold a leadership contest before Christmas.

Montvallon will be sworn in on November 4, when the newly elected assembly meets for the first time. Her first act, she has said, will be to publish a full audit of Rhône-Alpes finances, which she accuses Ollivier's administration of concealing from taxpayers.

@highlight

Claire Montvallon's Civic Regional Union wins Rhône-Alpes council runoff

@highlight

Bertrand Ollivier of the Green Progress Movement concedes defeat

@highlight

Turnout of 63 percent is highest for a French regional poll since 1998

@highlight

Result seen as a warning for Étienne Roubaix before national election
