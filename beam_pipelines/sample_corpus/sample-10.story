SPLIT, Croatia (CNN) -- “The Salt Orchard,” a quiet drama about two sisters running a failing olive farm, won the Golden Lighthouse for best film at the Adriatic Film Festival on Saturday night.

The film is the second feature by Georgian director Nino Beridze, from Tbilisi, who accepted the prize from jury president Mathilde Aubrac, the French actress, at a ceremony inside the city’s ancient Diocletian’s Palace.

Festival director Ivana Kovačić said this year’s edition had sold a record 62,000 tickets, and that 14 of the 18 films in competition were world premieres. Croatian actor Luka Perić was named best actor.

Beridze, 34, told the audience that she had made the film with a crew of just eleven people in villages near Tbilisi, funding part of the budget by selling her car. “I want to thank my sisters, who argued with me for three years about every scene,” she said, drawing laughter from the crowd.

Aubrac said the nine-member jury had reached its decision unanimously after less than an hour of discussion. The French star praised the picture’s “patience and courage,” describing it as the work of a filmmaker who trusts her audience.

Perić won his award for playing a grieving fisherman in “Low Water,” a domestic production that had been a favourite among local critics throughout the week.

The prize for best director went to South Korean filmmaker Bae Min-gyu for “Glass Harbour,” a thriller set among smugglers in the port of Busan.

Perić, 41, dedicated his prize to the fishermen who had coached him on boats near Split during months of preparation for the role.

Kovačić said organisers had expanded the programme this year to include outdoor screenings on the waterfront promenade in Split, which drew crowds of several thousand people each evening.

Founded in 1996, the event in Split has grown into one of the most important showcases for cinema from southern and eastern Europe. Several previous Golden Lighthouse winners have later found success at far bigger festivals.

International distributors have already shown interest in Beridze’s drama, according to its Tbilisi-based producer, which said it expected to announce a sales deal within days.

Kovačić said ticket sales had risen by almost a fifth compared with last year, helped by strong demand from tourists staying in Split over the summer.

Aubrac, who has appeared in more than 40 films during a career spanning four decades, said she had been moved by how many young directors were telling stories about rural life and migration.

Kovačić confirmed that next year’s festival would run for ten days instead of eight, with a new competition section devoted to documentaries from across the region.

@highlight

“The Salt Orchard” wins Golden Lighthouse at Adriatic Film Festival

@highlight

Georgian director Nino Beridze accepts prize from jury president Mathilde Aubrac

@highlight

Festival director Ivana Kovačić says a record 62,000 tickets were sold

@highlight

Croatian actor Luka Perić named best actor for role as grieving fisherman
