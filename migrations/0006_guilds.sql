-- /mygames lists the games of the server it is asked on (issue 41): each game keeps the
-- Discord server (guild) its thread is in, set by the front end that created it. Games stored
-- before, and games created on the console, have none and are listed everywhere.
ALTER TABLE games ADD COLUMN guild TEXT;
