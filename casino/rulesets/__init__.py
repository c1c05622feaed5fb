"""Rulesets: a venue's named rules for a game, their numbered versions approved by a second
person, and the exact house edge shown before a version goes live. Each game's version model
extends :class:`casino.rulesets.models.RulesetVersion` and its admin extends
:class:`casino.rulesets.admin.RulesetVersionAdmin`."""
