TBILISI, Georgia (CNN) -- Indian teenager Arjun Malhotra became the youngest winner of the World Rapid Chess Open on Sunday, beating defending champion Viktor Sazonov of Ukraine in a tense tiebreak followed online by more than two million viewers.

Malhotra, 19, from Chennai in southern India, won the deciding blitz game in 41 moves after the pair drew all four of their regular games. The tournament, run by the Global Chess Federation (GCF), carried a prize fund of $1.2 million, with $300,000 going to the champion. GCF president Helga Lindqvist handed over the trophy in front of a packed hall.

Lindqvist described the contest as "one of the most dramatic matches our sport has seen in a generation" and said viewing figures had broken every record the federation holds.

Sazonov, 34, had not lost a single game in Tbilisi before the last day and was widely expected to keep his title for a third straight year.

"I was lucky in the second game. He had me nearly lost and I just kept finding moves," Malhotra told reporters afterwards, still clutching the gold medal.

Sazonov congratulated his young opponent but complained that the GCF had scheduled the tiebreak only forty minutes after the final classical round, leaving players no time to rest or eat.

Lindqvist said the federation would look again at its timetable before next year's event, adding that complaints from players were always taken seriously by the GCF board.

Malhotra learned the game from his grandfather in Chennai and earned the grandmaster title at the age of 14, rising within three years to become one of the highest-rated players anywhere in India.

His coach, former national champion Ravi Subramanian, flew in for the final and watched every move from a small room beside the stage.

Interest in the game has boomed in Georgia, where clubs report waiting lists for children's classes, and organisers said tickets for the closing weekend in Tbilisi sold out within hours.

In the decisive blitz game, Sazonov pushed for a win with the black pieces but overlooked a knight sacrifice that left his king exposed, and Malhotra converted the advantage calmly.

Lindqvist said the GCF had already received bids from four countries to host the next edition, although she declined to name them before the board meets in December.

Sazonov said he would take a break from competition to spend time with his family in Ukraine before deciding whether to enter the next championship cycle.

Malhotra, meanwhile, said he planned to spend part of his winnings on a chess school for poor children in India, a promise that drew loud applause from the audience.

@highlight

Arjun Malhotra, 19, wins World Rapid Chess Open in Tbilisi

@highlight

Indian teenager beats defending champion Viktor Sazonov in tiebreak

@highlight

Global Chess Federation president Helga Lindqvist praises "dramatic" final
