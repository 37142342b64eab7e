(CNN) -- Mount Keruan, a volcano on the Indonesian island of Sulawesi, erupted before dawn on Wednesday, hurling a column of ash 12 kilometers into the sky and forcing more than 18,000 villagers to flee their homes.

Indonesia's Geological Hazards Agency (GHA) raised its alert to the highest level and declared a 7-kilometer exclusion zone around the crater. Its director, Budi Prasetyo, said molten rock was flowing down the northern slopes toward several farming villages.

Governor Maria Sumampouw ordered schools closed across the province, while the National Disaster Response Agency (NDRA) sent tents, masks and food to evacuation centers in the nearby city of Manado.

Prasetyo said instruments had recorded hundreds of small tremors beneath Mount Keruan during the past fortnight, allowing scientists to warn nearby communities several days before the blast.

By mid-morning a fine grey powder had settled on cars, rooftops and palm trees in Manado, and officials closed the city's airport until at least Friday because of poor visibility.

The NDRA said no deaths had been reported so far, but two farmers who had refused to leave their fields were being treated in hospital for burns to their legs and arms.

Sumampouw visited a sports hall in Manado where about 3,000 evacuees were sleeping on thin mats, and promised that the provincial government would cover the cost of rebuilding any homes destroyed by lava.

"We left with only the clothes we were wearing. The sky turned black and the ground was shaking," said one woman, who had walked for three hours carrying her two young children.

Prasetyo warned that heavy rain forecast for the weekend could turn thick ash deposits into fast-moving mudflows, and urged residents of Sulawesi river valleys not to return home yet.

Indonesia has more active volcanoes than any other country, and the GHA monitors around 70 of them around the clock from observation posts scattered across the archipelago.

Mount Keruan last erupted in 1996, when a smaller blast buried two hamlets on its eastern flank and killed 11 people, according to records held by the GHA.

The NDRA said it had delivered water trucks and portable toilets to the shelters after Sumampouw warned that crowded halls could quickly spread disease among the displaced families.

Farmers fear the eruption will ruin this year's clove and coconut harvests, which provide most of the income for families living on the fertile slopes below Mount Keruan.

Officials in Manado said they were preparing to hand out face masks to every school pupil in the city once classrooms reopen, because the ash can irritate young lungs.

The exclusion zone will stay in place for at least two weeks, Prasetyo said, and GHA teams plan to fly drones over the crater on Thursday to measure gas emissions.

@highlight

Mount Keruan erupts on Indonesian island of Sulawesi, sending ash 12 km high

@highlight

More than 18,000 villagers flee as lava flows toward farms

@highlight

Geological Hazards Agency raises alert to highest level

@highlight

Governor Maria Sumampouw orders schools closed across the province
