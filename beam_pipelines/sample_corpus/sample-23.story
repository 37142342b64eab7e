SEOUL, South Korea (CNN) -- The Danube Philharmonic Orchestra (DPO) opened its first tour of Asia in more than a decade on Saturday with a sold-out concert in Seoul, where South Korean pianist Park Ji-won joined the Vienna-based ensemble for Anton Reisinger's Second Piano Concerto.

Conductor Annelie Hartmann led 96 musicians through a program that also included the premiere of "River Lights," a new work by Austrian composer Lukas Brenner written for the tour. The DPO will give 11 concerts in Seoul, Tokyo, Osaka and Shanghai over the next three weeks, making this its most ambitious overseas trip in a generation.

The audience of 2,500 rose to its feet as the final chord faded, and Park returned to the stage three times for bows.

Hartmann, who became the DPO's first female music director two years ago, said she had wanted the tour to begin in Seoul because of the city's devoted young audiences.

"When we play here, half the hall is under thirty. In Vienna, we can only dream of that," Hartmann told reporters after the performance.

Park, 26, studied in Vienna for four years and won a major international piano competition in 2011, and has since appeared regularly as a soloist with the DPO.

Brenner flew to Seoul for the premiere and said River Lights was inspired by evening walks along rivers in Vienna, Tokyo and Shanghai, cities he visited while writing the piece.

Critics in South Korea praised the performance, with one newspaper describing Park's playing in the slow movement as "tender enough to stop time."

The tour is being partly funded by the Austrian government as part of a cultural program to strengthen ties with South Korea and other countries across Asia.

Hartmann said transporting the DPO's instruments had been a complex operation, with 14 tonnes of equipment flown from Vienna in climate-controlled containers.

The orchestra returns to the Seoul stage on Sunday before travelling to Tokyo, where it will perform Reisinger and Brenner once more for an audience of schoolchildren.

Tickets for the four concerts in Shanghai sold out within a day of going on sale, according to the DPO, which said it hoped to return to Asia every three years.

Brenner said he had rewritten the closing bars in River Lights twice during rehearsals in Vienna after Hartmann suggested the ending should fade rather than build.

Hartmann plans to record River Lights with the DPO in Vienna next spring, and Park has already agreed to join the orchestra for a recording of the Reisinger concerto.

Park will rejoin Hartmann and the DPO for the final concert of the tour in Osaka, where she is scheduled to perform Reisinger's First Piano Concerto.

@highlight

Danube Philharmonic Orchestra starts Asia tour with concert in Seoul

@highlight

South Korean pianist Park Ji-won plays Reisinger with the Vienna orchestra

@highlight

Conductor Annelie Hartmann leads premiere of Lukas Brenner's "River Lights"
