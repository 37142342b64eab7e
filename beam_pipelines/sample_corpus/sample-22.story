By . Sample Reporter . PUBLISHED: . 12:30 EST, 14 August 2014 . | . UPDATED: . 15:48 EST, 14 August 2014 . An endangered Asian elephant calf has been born at Ashcombe Zoo in Devon, the first elephant birth in the zoo's 80-year history.

The female calf, who weighed almost 19st, arrived in the early hours of Sunday after a 22-month pregnancy and was standing within an hour. Her mother, Kamala, a 24-year-old elephant who came to the zoo from Sri Lanka in 2005, is said to be calm and attentive.

Head keeper Lucy Trevelyan watched the birth on night-vision cameras. Zoo director Martin Oakes said the calf was a major boost for the Rare Species Breeding Network (RSBN), which manages the breeding of Asian elephants in Europe.

Trevelyan, who has worked with Kamala for nine years, said the team had been sleeping in shifts at the elephant house for almost a fortnight waiting for labour to begin.

'She did everything perfectly on her own. We just sat in the dark holding our breath,' Trevelyan said.

The youngster will remain indoors with Kamala and the other females for several weeks before visitors get their first look at her in the outdoor paddock, Oakes explained.

The RSBN said there are fewer than 50,000 Asian elephants left in the wild, with numbers falling because of habitat loss and conflict with farmers in countries including Sri Lanka.

The calf's father, a bull that was moved to Ashcombe Zoo four years ago as part of an RSBN exchange, was kept in a separate enclosure during the birth.

Oakes said keepers would invite the public to suggest names for the baby, with the winning entry chosen by staff and announced next month.

Vets at the Devon attraction will carry out health checks every day for the first month, weighing the calf and making sure she is feeding properly from Kamala.

According to Trevelyan, the youngster is already showing a strong personality, pushing her trunk into buckets and following the older females around the enclosure.

Ashcombe Zoo spent £1.2million building a new elephant house six years ago, a project that Oakes said was designed from the start with breeding in mind.

Visitor numbers for Ashcombe Zoo rose sharply on Monday after news of the birth spread, and staff in Devon said the car park was full by mid-morning.

Trevelyan said Kamala had been protective but relaxed, allowing keepers to approach the calf within a day of the birth, which she described as a sign of deep trust.

The RSBN hopes that the calf will eventually move to another zoo in Europe to breed, helping to keep the captive population genetically healthy.

@highlight

Asian elephant calf born at Ashcombe Zoo in Devon, a first for the zoo

@highlight

Mother Kamala gave birth after a 22-month pregnancy

@highlight

Head keeper Lucy Trevelyan watched the birth on night-vision cameras

@highlight

Rare Species Breeding Network calls calf a boost for Asian elephants
