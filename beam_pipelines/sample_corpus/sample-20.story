LAUSANNE, Switzerland (CNN) -- Italian cyclist Matteo Vitale has been banned from competition for four years and stripped of his victory in last summer's Alpine Crown stage race after a tribunal ruled that he had used the blood-boosting drug EPO.

The Independent Cycling Integrity Tribunal (ICIT) said urine samples taken from Vitale during the race's final week contained traces of the banned substance. The 28-year-old, who denies wrongdoing, has 21 days to appeal to the Sports Arbitration Panel (SAP).

His team, Alpenlicht Racing, suspended him immediately. Team manager Jürgen Kessler said the squad was "shocked and angry." The title now passes to Belgian rider Wouter Declercq, who finished second.

Declercq had trailed Vitale by 38 seconds after eight stages through the mountains of Switzerland and northern Italy, including two summit finishes above 2,000 meters.

In a statement released through his lawyers, Vitale said he had "never taken any prohibited substance" and suggested that his samples might have been contaminated in the laboratory.

The ICIT rejected that claim, saying that a second analysis of the same samples, carried out at a different laboratory in Lausanne, had produced an identical result.

Kessler said Alpenlicht Racing had introduced its own internal testing program two years ago and that none of those checks had raised any suspicion about Vitale.

"If this ruling is upheld, he will never ride for us again. We owe that to our sponsors and to every clean rider in the peloton," Kessler told reporters.

Vitale, who grew up in a small mountain town in Italy, had been regarded as one of the brightest climbing talents of his generation and was expected to lead his team at next year's major tours.

Speaking at his home in Belgium, Declercq said he felt no joy at inheriting the victory and would rather have won it on the road, adding that the sport needed to move on from such scandals.

The SAP said it would try to hear any appeal within four months, meaning a final decision could come before the start of next season.

Under ICIT rules, Vitale must also return prize money of around 60,000 euros that he collected for winning the Alpine Crown and two individual stages.

Alpenlicht Racing could also face a fine of its own if the tribunal concludes that team staff knew about the doping, though the ICIT said there was no evidence of that so far.

Kessler said Alpenlicht Racing would name a new leader for the Alpine Crown within weeks, and that several young riders had already asked to take on the role.

@highlight

Matteo Vitale of Italy banned for four years after testing positive for EPO

@highlight

Vitale stripped of Alpine Crown title, which passes to Belgium's Wouter Declercq

@highlight

Alpenlicht Racing manager Jürgen Kessler says team is "shocked and angry"
