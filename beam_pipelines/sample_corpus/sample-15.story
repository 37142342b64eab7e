MONTEVIDEO, Uruguay (CNN) -- Authorities in Uruguay's capital began rationing tap water on Tuesday as the country's worst drought in seven decades left the main reservoir serving Montevideo at less than 8 percent of its capacity.

The Metropolitan Water Company (MWC) said supplies to homes would be cut off between midnight and 6 a.m. every day until further notice. Environment Minister Lucía Barreiro urged families to reuse washing water and asked businesses to close car washes and decorative fountains.

Data from the National Meteorology Institute (NMI) show that the region has received less than a third of its normal rainfall since January. NMI director Raúl Etcheverry said no significant rain was forecast for at least another month.

Barreiro told lawmakers that the government would distribute two liters of bottled water a day to every pensioner and to families with children under five, starting next week.

The lake behind the dam, which normally provides about 60 percent of the drinking water used in Montevideo, has fallen so low that boat ramps now end in cracked mud dozens of meters from the shore.

To stretch what remains, the MWC has been mixing fresh water with saltier water drawn from the estuary, a step that has left many residents complaining that their tap water tastes of salt.

The MWC insists the blend is safe for healthy adults, but Barreiro advised people with high blood pressure or kidney problems to drink bottled water instead.

Etcheverry blamed a stubborn cooling of ocean waters for the dry months, saying the pattern had pushed storm systems away from Uruguay for almost three years.

"We have never recorded a run of dry months like this since our measurements began," Etcheverry told CNN in an interview at the NMI headquarters.

Farmers across Uruguay have also suffered heavy losses, with cattle herds thinned and soybean yields expected to fall by half, according to figures released by the ministry Barreiro leads.

Schools in Montevideo will close two hours early from next Monday so that cleaners can finish their work before the nightly cuts begin, Barreiro said.

Engineers at the MWC said they were also trucking water to hospitals and care homes, which have been told to keep reserve tanks full at all times.

Opposition politicians accused the government of ignoring warnings about Montevideo's dependence on a single reservoir and called on Barreiro to publish engineering studies dating back a decade.

Barreiro said a new pipeline drawing on a second river basin would be completed ahead of schedule, and that the MWC had hired extra crews to repair leaking mains across the capital.

Long queues formed outside supermarkets across Montevideo during the afternoon as shoppers stocked up on bottled water, and some stores limited customers to six bottles each.

@highlight

Montevideo begins nightly water cuts as drought drains Paso Hondo reservoir

@highlight

Environment Minister Lucía Barreiro urges families to save water

@highlight

National Meteorology Institute says no significant rain expected for a month
