(CNN) -- The Harbor Point Bridge linking Duluth, Minnesota, with Superior, Wisconsin, was closed indefinitely on Tuesday after inspectors found severe corrosion in two of its main steel supports, forcing about 30,000 daily commuters onto long detours.

The Minnesota Highway Safety Agency (MHSA) ordered the closure hours after receiving an emergency report from consulting firm Caldwell & Brandt Engineering, which had been hired to carry out a routine five-year inspection.

"We will not gamble with people's lives," state Transportation Commissioner Lorraine Okafor told reporters at a news conference beside the bridge. Duluth Mayor Dennis Halvorsen called the closure "a gut punch" for local businesses.

According to the engineering report, rust had eaten through nearly 40 percent of the steel in the pier sitting closest to the shipping channel. Caldwell & Brandt recommended that no vehicles or pedestrians use the span until temporary bracing could be installed.

Okafor said the MHSA would spend the coming weeks deciding whether the 1961 structure can be repaired or must be replaced altogether. Building a new crossing, she added, would likely take at least four years and cost more than $600 million.

The nearest alternative route lies roughly 11 miles to the south, and traffic there was backed up for more than an hour during Tuesday's evening rush.

Halvorsen urged employers in Duluth to let staff work from home where possible and asked state officials to provide free shuttle buses for workers without cars. "Families on both sides of the water depend on that crossing for jobs, school and hospital visits," the mayor said.

Leaders in Superior, where many residents travel across the channel each morning to work at Duluth's hospitals and port, said they had received no advance warning. Officials in Wisconsin said they would seek federal emergency funding to help communities on both banks cope.

The shutdown has revived questions about the condition of ageing infrastructure across Minnesota and its neighbours. A 2012 survey by the MHSA listed 214 spans in Minnesota as structurally deficient, though the Duluth crossing did not appear on that list.

Okafor said MHSA inspectors would also re-examine four other bridges built in Minnesota during the same decade using a similar steel design.

Andrea Lindqvist, a lead engineer at Caldwell & Brandt, said the damage had been hidden beneath layers of paint applied during a repair project in the 1990s. "You could not have seen this from the road deck," Lindqvist said.

Ships heading into Duluth will not be affected, harbor officials said, because the bridge's lift section has been locked in its raised position until engineers finish their assessment.

E-mail to a friend

@highlight

Harbor Point Bridge between Duluth and Superior closed over corrosion fears

@highlight

Engineers from Caldwell & Brandt found severe rust in two supports

@highlight

Commissioner Lorraine Okafor says a replacement could take four years

@highlight

Duluth Mayor Dennis Halvorsen calls shutdown "a gut punch" for businesses
