KRAKOW, Poland (CNN) -- Thieves broke into the Krakow Museum of Fine Arts (KMFA) early on Saturday and escaped with a 17th-century Dutch painting valued at about €12 million, Polish police said.

The stolen work, “Girl with a Pewter Jug” by Dutch master Jacobus Verlinde, was cut from its frame in a first-floor gallery shortly after 3 a.m., according to Inspector Tomasz Bielak of the Krakow regional police.

Museum director Magdalena Wrzosek said the canvas had been on loan from the Rijksvault Foundation in Amsterdam and was due to return to the Netherlands next month. Interpol has been alerted, and border guards have been told to watch for the painting.

Bielak said two men in dark overalls and balaclavas lowered themselves through a roof light after climbing scaffolding that had been put up for roof repairs. Security cameras captured the pair inside the building for less than four minutes.  Watch surveillance footage of the break-in »

An alarm sounded when the frame was disturbed, but the intruders had already vanished by the time guards reached the room, the inspector told a briefing outside police headquarters.

Wrzosek, visibly shaken, described the theft as “a wound to the whole city” and appealed to anyone who noticed suspicious vehicles near the Old Town overnight to contact investigators. “This picture belongs to everyone who has ever stood in front of it,” she said.

Verlinde, who painted mostly during the 1660s, left fewer than thirty known paintings, and experts say his small domestic scenes rarely appear on the open market. That scarcity would make the stolen Dutch canvas almost impossible to sell legally, they warn.

Rijksvault Foundation officials said in a statement that they were “deeply distressed” and was cooperating fully with Polish authorities. The Amsterdam lender sent the picture to the KMFA in April for an exhibition of Dutch interiors that has drawn more than 80,000 visitors.

Art crime specialist Jan-Willem Oosterbeek, a former Dutch police detective, said stolen masterpieces were often held for years as collateral in criminal deals rather than sold to collectors. “Thieves usually discover very quickly that nobody respectable will touch a famous picture,” Oosterbeek said.

Poland’s culture ministry ordered an immediate review of security at state-funded museums and said the scaffolding contractor would be questioned about who had access to the site.

The KMFA will stay closed to visitors until Tuesday while forensic teams examine the building. Bielak declined to say whether officers had identified any suspects, but said Interpol had circulated images of the missing masterpiece to police forces across the continent.

@highlight

Thieves steal 17th-century painting from Krakow Museum of Fine Arts

@highlight

“Girl with a Pewter Jug” by Jacobus Verlinde was cut from its frame

@highlight

Work was on loan from Amsterdam’s Rijksvault Foundation

@highlight

Interpol alerted; police say the thieves entered through a skylight
