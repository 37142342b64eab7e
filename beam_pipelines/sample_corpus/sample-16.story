MADRID, Spain (CNN) -- Pilots at Spanish carrier Meseta Air walked out on Friday at the start of a three-day strike over pay and rest periods, grounding more than 400 flights and stranding tens of thousands of travelers at Madrid's Barajas airport at the start of the Easter holidays.

The Spanish Airline Pilots Union (SAPU) said 94 percent of its members at the airline had joined the stoppage. Union spokeswoman Elena Rubio said pilots had gone six years without a real pay rise.

Meseta Air chief executive Javier Montoya called the walkout "irresponsible" and said the carrier would seek damages in court. Spain's Transport Ministry ordered the airline to operate a minimum service to the Canary Islands and the Balearic Islands.

Long lines snaked through the departure halls at Barajas from early morning, with many passengers learning only at check-in desks that their flights had been cancelled.

Montoya said Meseta Air had offered pilots a 9 percent increase spread over three years and could not afford to go further while fuel prices remained so high.

SAPU's Rubio dismissed that offer as "an insult," arguing that the figure barely covered inflation and did nothing about the long duty days that SAPU says are exhausting crews.

"Tired pilots are a safety problem, not a bargaining chip," Rubio told a rally of around 300 union members outside the company headquarters in Madrid.

The Transport Ministry said it had appointed a mediator and invited both Montoya and Rubio to talks on Monday, although neither side has agreed to attend.

Hotel and restaurant owners told the Transport Ministry that cancellations during the holiday week could cost hotels and restaurants millions of euros in lost bookings.

Meseta Air, which carries about 14 million passengers a year, said it had chartered aircraft and crews from other operators to run some of its most popular routes out of Barajas.

Travelers whose flights were cancelled will be offered a full refund or a seat on a later flight, Meseta Air said, but consumer groups in Spain urged passengers to claim compensation as well.

Montoya insisted that safety had never been compromised at Meseta Air, noting that the carrier's duty rules were stricter than those required by regulators in Spain.

SAPU has threatened further strikes throughout the summer if Montoya refuses to reopen negotiations, a move that could disrupt the busiest travel season of the year.

Rubio said SAPU members had backed the walkout overwhelmingly in a ballot last month, and insisted that crews would return to the cockpit as soon as Montoya made a serious offer.

Shares in Meseta Air's parent group fell more than 4 percent in Madrid trading on Friday as investors weighed the cost of a prolonged dispute.

@highlight

Meseta Air pilots begin three-day strike, grounding more than 400 flights

@highlight

Spanish Airline Pilots Union says 94 percent of members have walked out

@highlight

Chief executive Javier Montoya calls the strike "irresponsible"

@highlight

Transport Ministry orders minimum service to the Canary and Balearic Islands
