(CNN)Hackers stole the personal details of almost 1.4 million customers of Latvia's Baltic Commerce Bank (BCB), the lender said on Monday, in what officials described as the largest data breach in the country's history.

BCB chief executive Andris Kalniņš said names, addresses, phone numbers and partial card numbers had been taken, but insisted that no money had been removed from any account. The bank, based in Riga, has hired Estonian cybersecurity firm Nordvakt to find out how the attackers got in.

Latvia's Financial Oversight Commission (FOC) has opened an investigation and could fine the bank up to 4 percent of its annual turnover. Ilze Ozola, who chairs the FOC, urged customers to change their online banking passwords immediately.

Kalniņš apologized at a press conference in Riga, saying the bank had "let down people who trusted us with their most private information" and that he took personal responsibility.

Investigators from Nordvakt believe the attackers entered BCB systems about three weeks ago through a software supplier that maintains the bank's customer service platform.

The breach was discovered only on Friday, when Nordvakt analysts noticed unusually large amounts of data leaving the bank's servers late at night.

Ozola said the FOC would examine whether BCB had reported the incident quickly enough and whether its security systems met the standards required of banks operating in Latvia.

"We are not yet at the stage of blaming anyone, but we expect complete openness from the bank," Ozola said in a television interview on Monday evening.

Customers formed long queues at several BCB branches in Riga, and the bank's telephone helpline was overwhelmed within an hour of the announcement, with callers waiting more than 40 minutes.

Kalniņš said BCB would offer every affected customer free identity monitoring for two years and would replace any payment card on request without charging a fee.

Nordvakt warned that the stolen information could be used in so-called phishing scams, in which criminals pose as bank staff to trick victims into revealing security codes.

Shares in BCB fell 11 percent in Riga trading, their steepest one-day fall since the bank was listed on the stock exchange in 2007.

The attack is the latest in a string of cyber incidents to hit financial firms in Latvia, and Kalniņš said the bank would double its security budget next year.

Kalniņš said the software supplier had been suspended while Nordvakt completed its review, and that BCB would keep the affected systems offline until they were declared safe.

The FOC said it expected to publish preliminary findings within three months, and Ozola did not rule out referring the case to prosecutors if evidence of negligence emerged.

@highlight

Hackers steal data of 1.4 million Baltic Commerce Bank customers in Latvia

@highlight

Chief executive Andris Kalniņš says no money was taken from accounts

@highlight

Financial Oversight Commission opens investigation and could fine the bank
