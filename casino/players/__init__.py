"""Players: the venue's members and their membership numbers, barrings, comps and the comp
policy, and the pages and API that show a player's rated play."""
