(CNN)A Norwegian rocket carried a satellite into orbit from Arctic soil for the first time on Friday, launching a small ice-monitoring spacecraft from the Andøya Spaceport in northern Norway.

The Fjellrev-1 rocket, built by startup Nordlys Launch Systems (NLS), lifted off at 10:42 a.m. local time and released the satellite about nine minutes later, the company said.

The 140-kilogram satellite, called Polarvakt, belongs to the Arctic Ice Monitoring Consortium (AIMC), a group of universities from Norway, Finland and Canada. NLS chief executive Sigrid Aaberg called the mission “the day Europe’s north joined the space age.”

Hundreds of spectators gathered on snowy hillsides near the launch pad, cheering as the slender vehicle climbed through low cloud above the coastline.

Aaberg, a former aerospace engineer who founded NLS in 2016, said the company planned to launch four more rockets next year and hoped eventually to fly one mission a month. “We have proved that a small team can build a rocket that works at the very first attempt,” she told reporters.

Mission director Tomas Brekke said telemetry showed Polarvakt had deployed its solar panels and was sending signals to a ground station in Tromsø. Engineers would spend about three weeks testing the spacecraft’s instruments before scientific work began, Brekke added.

The AIMC plans to use radar images from Polarvakt to measure how thick the Arctic sea ice is from season to season. Consortium scientists say better measurements will improve shipping forecasts and help researchers track how quickly the Arctic is warming.

“For years we have waited in line for space on other people’s rockets,” said Professor Leena Rautio of the University of Oulu, who leads the consortium. Launching from Andøya allowed the satellite to reach a polar orbit using less fuel, Rautio explained.

Norway’s government invested about 365 million kroner in upgrading the spaceport, and the country’s science minister attended Friday’s launch alongside executives from NLS.

Aaberg said NLS had already signed launch contracts with research institutes in Canada as well as Finland, two of the countries whose universities make up the AIMC.

Europe has struggled in recent years to find launch capacity for small satellites, and several rival companies across the continent are racing to build competing rockets.

Friday's success followed two postponements last month, when strong winds over Andøya forced the company to halt its countdown with minutes to spare.

NLS said the first stage of Fjellrev-1 fell into the sea as planned inside a closed zone about 300 kilometers offshore. Aaberg said her engineers would study whether future versions could be recovered and flown again.

@highlight

Norwegian startup Nordlys Launch Systems puts first satellite into orbit from Andøya

@highlight

Fjellrev-1 rocket carries Polarvakt ice-monitoring satellite

@highlight

Satellite belongs to Arctic Ice Monitoring Consortium of universities

@highlight

Chief executive Sigrid Aaberg says Europe’s north has “joined the space age”
