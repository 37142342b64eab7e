By . Sample Reporter . PUBLISHED: . 18:24 EST, 6 April 2014 . | . UPDATED: . 03:50 EST, 7 April 2014 . A 74-year-old grandmother crossed the finish line of the Cardiff Bay Marathon yesterday having raised more than £250,000 for the Children's Heart Trust (CHT), the charity that helped save the life of her grandson Alfie.

Martha Kettleby, from Penarth in south Wales, completed the 26.2-mile course in five hours and 51 minutes, cheered on by thousands of spectators who had followed her training on social media.

The race itself was won by Kenyan runner Daniel Kiprotich Rono in two hours and nine minutes, while race director Owen Pritchard said a record 14,000 people had taken part.

Kettleby began training eighteen months ago after her grandson Alfie, now six, underwent emergency surgery at a children's hospital to repair a hole in his heart.

The CHT had paid for the specialist equipment used during that operation, and the pensioner vowed to repay the charity by attempting the first marathon of her life.

'I told the surgeons I would run until my legs fell off,' Kettleby said after Alfie placed a medal around her neck on the Cardiff waterfront. 'They are still attached, just about, so perhaps I will do another one.'

Her online fundraising page attracted donations from 31 countries after a video of her jogging along the Penarth seafront in the snow was shared widely in January.

Rhian Lloyd-Baines, who runs the CHT, said the money would pay for two portable heart monitors and a family accommodation room close to the hospital where Alfie was treated. 'Martha has shown extraordinary courage, and every penny will make a difference to children like Alfie,' she said.

Rono, 27, broke the course record by 48 seconds despite strong winds blowing off the water during the second half of the race. The Kenyan said he planned to return to Cardiff next spring to try to go faster still.

Pritchard said organisers had been overwhelmed by the number of charity entrants and estimated that participants had collectively raised about £4.8million for good causes.

Two runners were treated for dehydration by paramedics close to the finish, but neither was seriously hurt, Pritchard added.

Her total was the largest ever collected by a single entrant in the event's history, according to Pritchard, who presented her with a special award after the race.

The CHT said it would name its new family room after the grandmother in recognition of her efforts.

Kettleby, who worked as a school dinner lady for 30 years before retiring, said she was now looking forward to 'a very long bath and a large slice of cake'.

@highlight

Martha Kettleby, 74, completes Cardiff Bay Marathon and raises £250,000

@highlight

Money will go to the Children's Heart Trust, which helped her grandson

@highlight

Kenyan Daniel Kiprotich Rono wins race in two hours and nine minutes

@highlight

Race director Owen Pritchard says record 14,000 people took part
