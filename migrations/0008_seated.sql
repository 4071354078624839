-- Substitutes (issue 42): who plays each seat now, as a JSON list like `users`, written when a
-- `/substitute` changes it (NULL until then: `users`, the players the game began with, is
-- what its log replays from and stays as it was). `/mygames` looks in both.
ALTER TABLE games ADD COLUMN seated TEXT;
