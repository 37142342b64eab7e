By . Sample Reporter . PUBLISHED: . 17:05 EST, 19 May 2014 . | . UPDATED: . 08:22 EST, 20 May 2014 . A farmer digging a drainage ditch in Shropshire has uncovered a mosaic floor from Roman times so well preserved that archaeologists say it is among the finest ever found in Britain.

Tom Ashworth, 57, struck the tiles while clearing a waterlogged field near the village of Upper Wenlow last month. Experts from the Marches Archaeology Trust (MAT) have since revealed a 20ft-wide panel showing the sea god Neptune surrounded by dolphins and leaping fish.

Dr Helen Marchbank, who is leading the excavation, said the floor probably belonged to a wealthy villa built in the third century AD. The Heritage Protection Board (HPB) said it would consider giving the site legal protection.

Mr Ashworth said he had assumed at first that his digger had struck an old brick path laid by his grandfather. 'Then I brushed the mud away and a face looked back up at me,' he said.

Marchbank said the quality of the work suggested that skilled craftsmen had travelled to Shropshire from one of the big workshops further south, probably at great expense.

'You do not commission something like this unless you want every visitor to know how rich and important you are,' she added.

Since the discovery, a MAT team of eight archaeologists and about 30 volunteers has uncovered coins, pottery and part of a bath house a short distance from the Neptune panel.

Inspectors from the HPB visited the site last week, and the board will decide within months whether the field should be formally protected as a scheduled monument.

Ashworth, whose family has worked the land around Upper Wenlow for four generations, said he was happy for the digging to continue but hoped to keep grazing sheep on the rest of the field.

Marchbank said experts would need at least two seasons of digging to understand the full size of the villa, which may have had more than 20 rooms arranged around a courtyard.

The mosaic will be covered with sand and protective sheeting over the winter, because exposure to frost could loosen thousands of tiny tiles, according to the MAT.

Villagers in Upper Wenlow have been asked to stay away from the field, although Ashworth said several walkers had already climbed over his gate hoping to catch a glimpse of Neptune.

Several coins recovered by MAT volunteers suggest that the villa was still occupied late in the fourth century, when Roman rule in Britain was beginning to weaken.

Marchbank said the trust hoped eventually to lift the panel and display it in a museum in Shropshire, so that visitors from every corner of Britain could admire it.

@highlight

Tom Ashworth uncovers Roman mosaic while digging a ditch on his farm

@highlight

Panel shows sea god Neptune surrounded by dolphins and fish

@highlight

Marches Archaeology Trust says it belonged to a wealthy third-century villa
