By . Sample Reporter . PUBLISHED: . 09:37 EST, 12 March 2014 . | . UPDATED: . 11:15 EST, 12 March 2014 . Electronics firm Korvath has recalled 420,000 of its Aero 14 laptops worldwide after dozens of reports that batteries swelled, overheated or caught fire while the machines were charging.

The Swedish company, based in Stockholm, said the fault had been traced to a batch of lithium-ion cells made by South Korean supplier Daesan Cell Co. between June and November last year.

Britain's Consumer Product Safety Board (CPSB) said it had received 37 complaints, including one from Leeds student Nathan Ellery, whose desk was scorched. Chief executive Ingrid Sollberg apologised to customers in a video message posted on Wednesday.

Owners are being told to stop using the computers immediately and to shut them down rather than leave them in sleep mode. Korvath will replace affected batteries free of charge or offer a full refund of the £899 purchase price.

Ellery, 19, said he woke to a smell of burning plastic and found smoke pouring from the vents of his machine. 'Another ten minutes and the whole room could have gone up,' Ellery said. 'I had left it on my desk overnight like always.'

In her message, Sollberg said the Stockholm-based manufacturer was 'deeply sorry' and promised that engineers had already tightened testing at its factories. She added that no serious injuries had been reported in any of the 23 countries where the model was sold.

The CPSB urged consumers to check the serial number printed underneath each device, saying units whose numbers begin with AE14-B are covered by the recall. A spokesman for the CPSB praised the speed of Korvath's response.

Daesan Cell Co., which is based in the port city of Busan, said it was investigating a possible contamination problem on one of its production lines. The supplier also makes cells for several other laptop brands, although none of those companies has announced a recall.

Shares in Korvath fell 6 per cent in Stockholm after the announcement, wiping roughly £300million off the company's market value.

Technology analyst Priya Raghunathan, of Northgate Research, estimated that the recall could cost Sollberg's company as much as £90million once shipping and replacement parts were included.

The Aero 14 went on sale in September as Korvath's flagship lightweight model and was praised by reviewers for its long battery life. A dedicated helpline will be open seven days a week until the end of April, the firm said.

Ellery said he had been offered a replacement laptop but would be asking for his money back. 'I don't think I could sleep next to one of those again,' he said.

@highlight

Korvath recalls 420,000 Aero 14 laptops over battery fire risk

@highlight

Faulty cells were made by South Korean supplier Daesan Cell Co.

@highlight

Consumer Product Safety Board received 37 complaints in Britain

@highlight

Chief executive Ingrid Sollberg apologises in video message
