package postgres

import "convfiles/internal/sqltext"

// The queries both indexes share (package sqltext), with PostgreSQL's
// numbered placeholders, rewritten once.
var (
	lookupFile  = sqltext.Numbered(sqltext.LookupFile)
	fileByID    = sqltext.Numbered(sqltext.FileByID)
	versionsOf  = sqltext.Numbered(sqltext.VersionsOf)
	insertKey   = sqltext.Numbered(sqltext.InsertKey)
	keyByID     = sqltext.Numbered(sqltext.KeyByID)
	revokeKey   = sqltext.Numbered(sqltext.RevokeKey)
	events      = sqltext.Numbered(sqltext.Events)
	eventsOf    = sqltext.Numbered(sqltext.EventsOf)
	pruneEvents = sqltext.Numbered(sqltext.PruneEvents)
)
