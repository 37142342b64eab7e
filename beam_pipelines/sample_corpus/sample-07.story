PERTH, Australia (CNN) -- A fast-moving bushfire destroyed at least 46 homes in the hills east of Perth on Sunday, forcing more than 3,000 people to flee as temperatures climbed above 41 degrees Celsius (106 Fahrenheit).

The blaze began near the town of Mundaring shortly before noon and was pushed west by gusts of up to 80 kilometers per hour, said Commissioner Grant Holloway of the Western Australia Fire and Rescue Command (WAFRC).

State Premier Annika Doyle declared a natural disaster zone across two local council areas and said the Australian Defence Force had been asked to help with evacuations. No deaths had been reported by Sunday evening.

Holloway told a televised briefing that about 400 firefighters, supported by 12 water-bombing aircraft, were battling flames along a front stretching roughly 20 kilometers. "Crews have been working in conditions that are about as dangerous as it gets," the commissioner said.  Watch aerial footage of the fire front »

Residents of Mundaring and surrounding rural properties described escaping with little more than pets and passports as thick smoke turned the afternoon sky orange.

Kerry-Ann Whitlock, a 52-year-old horse breeder, said she loaded six animals onto trailers while embers were falling around her stables. "We drove out through the smoke with the radio telling us to go now, not in ten minutes," Whitlock said.

Doyle visited an evacuation center set up in a sports stadium on the eastern edge of Perth, where volunteers were handing out food, water and blankets. The premier promised emergency payments for families who had lost everything.

The WAFRC said investigators were examining whether the fire had been lit deliberately, after witnesses reported seeing a car speeding away from the spot where smoke first appeared. Holloway urged anyone with information to contact police.

Holloway warned that spot fires could still jump containment lines overnight. The WAFRC has requested extra crews and two large air tankers from interstate agencies.

Forecasters expect a cool change to arrive on Monday afternoon, bringing lighter winds to the Perth hills, though no significant rain is predicted for the rest of the week.

Electricity was cut to about 9,000 properties as a precaution, and a stretch of highway linking Mundaring with the city remained closed in both directions late on Sunday.

Doyle said ADF troops would arrive overnight to help police manage roadblocks and check on elderly residents who had refused to leave.

Doyle thanked volunteer firefighters, many of whom had left their own properties unguarded to defend neighbouring homes across the Perth hills.

The WAFRC described the blaze as the most destructive to hit the hills around Perth for more than a decade.

E-mail to a friend

@highlight

Bushfire destroys at least 46 homes in hills east of Perth

@highlight

More than 3,000 people flee as temperatures climb above 41C

@highlight

Premier Annika Doyle declares natural disaster zone

@highlight

Commissioner Grant Holloway says crews face extremely dangerous conditions
