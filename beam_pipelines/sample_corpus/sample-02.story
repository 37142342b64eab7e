By . Sample Reporter . PUBLISHED: . 14:11 EST, 25 October 2013 . | . UPDATED: . 16:02 EST, 25 October 2013 . Premier League side Wexmoor United have completed the £38million signing of Portugal international Rui Calado from Lisbon club Sporting Atlântico, making him the most expensive player in the club's 126-year history.

The 23-year-old passed a medical at the Carrow Fields training ground on Thursday and signed a five-year contract worth a reported £110,000 a week. Manager Declan Fairbrother said Calado would provide the 'pace and imagination' his side has lacked this season.

The fee beats the £27million Wexmoor paid for Brazilian striker Thiago Moura in 2011 and follows weeks of negotiation with Atlântico president Joaquim Serrano.

Scroll down for video

Calado scored 19 goals in all competitions last season as the Lisbon side finished second in the league and reached a continental quarter-final.

Serrano had initially demanded his star's full release clause of £50million, but Atlântico were eventually persuaded to accept a smaller upfront sum plus add-ons linked to appearances and trophies.

Speaking at a press conference on Friday, Fairbrother described the young forward as one of the most exciting talents he had watched in twenty years of coaching. 'He frightens defenders, he works hard without the ball and he wants to learn the game over here quickly,' the manager said.

Calado, who has won six caps for his country, told Wexmoor United's television channel that joining the club had been a childhood dream because his father followed the team while working abroad. 'My dad used to wake me up early to watch their matches,' he said. 'Now I will be wearing the shirt myself.'

Tessitore, who also represents Moura, negotiated the transfer and is understood to have earned around £3million in commission.

Supporters welcomed the arrival on social media, although some questioned whether Wexmoor United could afford such heavy spending after a season in which the club reported losses of £14million.

Wexmoor United sit 11th in the Premier League after nine matches and have won only one of their last five games. Calado could make his debut at home against Harbourside City a week on Saturday if international clearance arrives in time.

Moura, who has been sidelined by a hamstring injury since August, posted a message online welcoming his new team-mate and predicting that the pair would form a dangerous partnership up front.

Fairbrother confirmed that Calado would wear the number 11 shirt, vacated in the summer when veteran midfielder Gareth Pryce retired after fourteen seasons at the club.

Serrano said in a statement that Atlântico were sad to lose a player who had come through their academy, but that the money would be reinvested in young talent from Lisbon and beyond.

@highlight

Wexmoor United sign Portuguese winger Calado for £38million

@highlight

Fee is a club record, beating the £27million paid for Thiago Moura

@highlight

Manager Declan Fairbrother says Calado will add pace and imagination

@highlight

Deal with Sporting Atlântico brokered by agent Marco Tessitore
