By . Sample Reporter . PUBLISHED: . 09:12 EST, 3 March 2014 . | . UPDATED: . 11:40 EST, 3 March 2014 . Two of Yorkshire's busiest hospitals are to merge into a single organisation next year in a £240million deal that bosses say will cut waiting lists but unions fear will cost hundreds of jobs.

Sheffield's Riverside Hospital and the Kingsmead Hospital in Rotherham will combine under a new body, the South Yorkshire Health Partnership (SYHP), the Care Standards Authority (CSA) confirmed on Monday. Riverside chief executive Margaret Coverdale will run the enlarged group, which is expected to employ more than 11,000 people.

The Hospital Staff Alliance (HSA), which represents nurses, porters and cleaners at both sites, said up to 600 posts were at risk. Its regional secretary, Gareth Penhaligon, warned that members could soon be balloted on strike action.

In a letter to staff, Coverdale insisted that there would be no compulsory redundancies and that most savings would come from sharing laboratories, pharmacy contracts and computer systems.

'Patients do not care whose logo is on the door. They care about being seen quickly by someone who knows what they are doing,' she said.

Under the proposals, Kingsmead Hospital would become a centre for planned operations such as hip and knee replacements, while Riverside Hospital would keep the area's major trauma unit and its children's wards.

Penhaligon said the HSA had not been consulted before the announcement and accused managers of treating frontline workers as 'a line on a spreadsheet'. 'We have heard promises like this before, and every time it ends with fewer nurses on the ward at night,' Penhaligon added.

The CSA said its inspectors had examined the plans for eight months and concluded that pooling specialist teams from Sheffield and Rotherham would improve results for stroke and cancer patients.

Waiting times at Kingsmead Hospital have been among the longest anywhere in Yorkshire, with some patients told to expect delays of more than a year for routine surgery.

Coverdale, a former intensive care nurse who joined Riverside Hospital as chief executive in 2009, said she had spent much of the past year touring wards in Rotherham to explain the plan.

Councillors in Rotherham gave the merger a cautious welcome, although several said they worried that residents without cars would struggle to reach Sheffield quickly in an emergency.

Penhaligon said the HSA would also ask the CSA to publish the staffing figures behind its assessment, arguing that union members had a right to see them.

An independent review commissioned by the CSA estimated that the deal would save around £35million a year once the two sites had been fully integrated.

The SYHP will formally come into being next April, and Coverdale has promised to name her senior management team within weeks.

Penhaligon said HSA members at Riverside Hospital would meet on Thursday evening to decide whether to move towards a formal ballot.

@highlight

Riverside Hospital and Kingsmead Hospital to merge in £240million deal

@highlight

Margaret Coverdale will lead the new South Yorkshire Health Partnership

@highlight

Hospital Staff Alliance says up to 600 jobs could go
