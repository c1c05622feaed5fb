"""The rulesets' API: versions read, drafted, cloned and approved through the services."""
