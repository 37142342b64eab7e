VALLETTA, Malta (CNN) -- Rescuers pulled all 21 crew members from the sea south of Malta on Tuesday after their cargo ship sank in a violent storm, ending a frantic overnight operation in waves up to seven meters high.

The Liberian-flagged Coral Meridian, carrying fertilizer from Egypt to Spain, began taking on water shortly before midnight, according to the Malta Search and Rescue Authority (MSRA). Captain Dimitrios Kallergis ordered his crew into two life rafts before the vessel went down about 40 nautical miles offshore.

An MSRA helicopter flown by Lieutenant Mark Farrugia winched 12 sailors to safety, while a passing tanker picked up the others. The ship's owner, Piraeus-based Aegean Bulk Carriers (ABC), thanked the rescuers.

Kallergis, 52, was the final man off the Coral Meridian, stepping into a raft moments before the ship rolled onto its side and slipped beneath the surface, the MSRA said.

Farrugia said his crew had made four trips between the rafts and the shore, refueling twice in Valletta while winds gusted at more than 90 kilometers per hour.

"The rafts kept disappearing behind the waves. Every time we lost sight of them, my heart stopped," Farrugia told CNN after landing for the last time.

All of the sailors were taken to hospital in Valletta, where doctors treated several for hypothermia, cuts and bruises, and one for a broken wrist.

ABC said a cargo hold had flooded after a hatch cover failed in the storm, and that the company would cooperate with an investigation by authorities in Malta.

Kallergis told MSRA officials that the crew had less than twenty minutes to abandon ship once the water began rising in the engine room.

Salvage experts said the Coral Meridian now lies on the seabed at a depth of about 300 meters, and the MSRA said there were no signs yet of fuel leaking from the wreck.

The tanker that collected nine of the sailors was diverted to Valletta so that they could be reunited with their colleagues, ABC said in a statement.

Farrugia, a father of two who joined the MSRA helicopter unit eight years ago, said it was the most difficult rescue he had ever flown.

Kallergis, who has commanded cargo ships for more than two decades, praised his crew for staying calm and following every instruction as the rafts were launched into the swell.

Malta's prime minister praised Farrugia and the helicopter crew, saying their courage had prevented what could easily have become a major tragedy.

ABC said it would fly the crew home to their families as soon as doctors in Malta confirmed they were fit to travel, probably by the end of the week.

@highlight

All 21 crew rescued after cargo ship Coral Meridian sinks south of Malta

@highlight

Helicopter pilot Lieutenant Mark Farrugia winches 12 sailors to safety

@highlight

Captain Dimitrios Kallergis was last to leave the sinking vessel
