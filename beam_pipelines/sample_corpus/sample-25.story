TORONTO, Canada (CNN) -- The president of Lakeshore University resigned on Friday after an independent inquiry found that admissions staff had accepted more than $2 million in payments to secure places for the children of wealthy families.

Patricia Kwan stepped down hours after the report, commissioned by the Ontario Higher Education Council (OHEC), was made public. It found that at least 37 students had been admitted over six years with the help of a private consultancy, Summit Admissions Group (SAG), run by Bradley Hollins.

Hollins, who has been charged with fraud by Toronto police, allegedly paid coaches to list applicants as recruited athletes in sports they did not play. Kwan was not accused of taking money herself.

The OHEC report, written by a retired judge, said senior managers at Lakeshore University had ignored repeated warnings from junior staff about suspicious applications.

Kwan said in a statement that she accepted responsibility for failures that happened while she led the university and that stepping aside was "the only honorable course."

According to the inquiry, families paid SAG between $40,000 and $150,000 each, and part of that money was passed on to members of the rowing, sailing and fencing coaching staff at Lakeshore University.

Lawyers for Hollins said their client would plead not guilty and would "vigorously contest" the allegations when the case reaches court in Toronto later this year.

Several of the students named in the OHEC report never attended a single training session, and at least two had no experience whatsoever in the sports listed on their applications.

Lakeshore University has suspended four coaches and says it will review the records of every student admitted through its athletics program since 2008.

Student leaders welcomed the departure of Kwan but said the university also needed to explain how honest applicants had been turned away to make room for SAG clients.

The OHEC said it would draft new rules requiring every university in the province to have athletic admissions checked by staff who are independent of sports departments.

Prosecutors in Toronto allege that Hollins kept a spreadsheet listing each family, the sport chosen for their child and the coach who had been paid to sign off on the application.

Kwan, a chemist who had led Lakeshore University for seven years, is the first president of a Canada university to resign over admissions fraud, according to the OHEC.

The university's board will appoint an interim president next week, and has promised to publish a full list of the changes it makes in response to the OHEC findings.

@highlight

Lakeshore University president Patricia Kwan resigns over admissions scandal

@highlight

Ontario Higher Education Council inquiry finds $2 million in payments

@highlight

Consultant Bradley Hollins of Summit Admissions Group charged with fraud
