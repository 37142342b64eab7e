WELLINGTON, New Zealand (CNN) -- New Zealand's parliament narrowly approved a tax on sugary soft drinks on Thursday, making the country one of the first in the Pacific to charge manufacturers according to how much sugar their products contain.

The measure passed by 61 votes to 59 after two members of the opposition Liberty Reform Party (LRP) broke ranks. Finance Minister Aroha Whitcombe, who steered the bill through parliament, said it would raise about NZ$90 million a year for school sports and dental clinics.

The Beverage Producers Council (BPC), which represents soft drink makers, said the tax would cost jobs and hurt low-income families. LRP leader Graham Tessler promised to scrap it if his party wins next year's election.

Whitcombe, a former pediatric nurse, told the chamber that she had watched too many children lose teeth before they started school. "This is not about punishing anyone. It is about giving kids a fairer start," she said.

The charge comes into force next April and should add around 40 cents to a large bottle of the sweetest drinks, according to estimates published by Whitcombe's department.

Tessler accused the government of "reaching into the shopping baskets of ordinary families" and said the LRP would campaign on repealing the charge across New Zealand.

The two LRP lawmakers who crossed the floor said they had acted on conscience after hearing from dentists in their rural districts, and Tessler declined to say whether they would face disciplinary action.

The BPC warned that bottling plants could cut shifts if sales fell sharply, and said its members had already reduced sugar in many drinks voluntarily over the past five years.

"Consumers have been choosing lighter options for a while now. This tax simply punishes people for buying a treat," a BPC spokesman said in a statement.

Whitcombe rejected that argument, noting that manufacturers could avoid the levy entirely by reformulating their products before it comes into force.

Health charities across New Zealand welcomed the vote, describing it as the most significant public health law passed in Wellington in more than a decade.

Under the legislation, money raised by the tax must be spent on children's health, and Whitcombe will be required to report to parliament each year on how it was used.

Dentists who campaigned for the measure said tooth decay remained the most common reason for young children in New Zealand to be admitted to hospital for surgery.

Political analysts said the narrow margin showed how divisive the issue had become, and predicted that Tessler would make the cost of living a central theme of the LRP campaign.

@highlight

New Zealand lawmakers approve sugar tax on soft drinks by 61 votes to 59

@highlight

Finance Minister Aroha Whitcombe says levy will fund school sports and dental care

@highlight

Beverage Producers Council warns that the tax will cost jobs

@highlight

Liberty Reform Party leader Graham Tessler vows to repeal the tax
