(CNN) -- Biologists from the University of Tartu have identified a new species of freshwater shrimp in a flooded limestone cave in western Estonia, lead researcher Kadri Saarepuu said Thursday.

The translucent, eyeless animal, named Niphargus lihulaensis, measures just 8 millimeters long. Saarepuu's team will publish its findings in the Baltic Journal of Zoology next month.

@highlight

University of Tartu biologists find new cave shrimp species in Estonia

@highlight

Eyeless animal measures just 8 millimeters long
