JOHANNESBURG, South Africa (CNN) -- South Africa's Constitutional Court ruled on Thursday that a government fishing quota system unlawfully excluded thousands of traditional fishers, ordering the state to redraw its allocations within twelve months.

The case was brought by the West Coast Artisanal Fishers Association (WCAFA), which represents about 6,000 families in villages between Cape Town and the Namibian border. The group argued that the Department of Marine Affairs (DMA) had handed most of the lucrative rock lobster catch to large commercial companies.

Writing for a unanimous bench, Justice Nomvula Khanyile said the policy had "stripped people of a livelihood their grandparents practised long before any permit existed."

Dozens of fishers who had travelled overnight by bus from coastal villages north of Cape Town sang and danced on the steps of the building as the judgment was read.

Khanyile's 94-page ruling found that the DMA had failed to consult coastal communities before adopting the quota rules in 2009, and that officials had ignored evidence showing how heavily those villages relied on lobster for income.

The court declared the relevant regulations invalid but suspended that order for a year to give the department time to design a fairer scheme. During that period, the judges said, traditional fishers must receive interim permits allowing a limited seasonal catch.

WCAFA chairperson Dorothea Jacobs, a 61-year-old grandmother who has fished from a wooden boat since her teens, wept as she spoke to journalists. "Today the highest judges in the land told our children that the sea is theirs too," Jacobs said.

A spokesman for the DMA said the department respected the decision and would begin talks with the WCAFA and other coastal groups next month. He cautioned, however, that scientists believe lobster stocks along the coast are already under severe pressure.

Commercial operators reacted with concern. The Atlantic Seafood Producers' Council, which speaks for the larger companies, warned that sudden cuts to its members' quotas could cost hundreds of factory jobs in the Western Cape.

Legal scholar Fatima Essop said Khanyile's judgment would likely shape disputes over fishing, grazing and mineral rights far beyond the country's western coastline. "The court has made it clear that consultation is not a box-ticking exercise," Essop said.

Khanyile also ordered the DMA to pay the legal costs of the fishers, who had relied on donations and volunteer lawyers throughout their eight-year battle.

The WCAFA first challenged the quota system in a provincial high court in 2011 but lost, before winning on appeal last year and taking the matter to the Constitutional Court.

CNN's Sample Writer contributed to this report.

@highlight

Constitutional Court rules fishing quota system unlawfully excluded traditional fishers

@highlight

Case was brought by the West Coast Artisanal Fishers Association

@highlight

Justice Nomvula Khanyile orders Department of Marine Affairs to redraw allocations

@highlight

Fishers' leader Dorothea Jacobs weeps with joy outside the court
