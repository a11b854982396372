package postgres

import "convfiles/internal/sqltext"

// The queries both indexes share (package sqltext), with PostgreSQL's
// numbered placeholders, rewritten once.
var (
	lookupFile               = sqltext.Numbered(sqltext.LookupFile)
	fileByID                 = sqltext.Numbered(sqltext.FileByID)
	versionsOf               = sqltext.Numbered(sqltext.VersionsOf)
	insertKey                = sqltext.Numbered(sqltext.InsertKey)
	keyByID                  = sqltext.Numbered(sqltext.KeyByID)
	revokeKey                = sqltext.Numbered(sqltext.RevokeKey)
	events                   = sqltext.Numbered(sqltext.Events)
	eventsOf                 = sqltext.Numbered(sqltext.EventsOf)
	pruneEvents              = sqltext.Numbered(sqltext.PruneEvents)
	liveStates               = sqltext.Numbered(sqltext.LiveStates)
	keptVersions             = sqltext.Numbered(sqltext.KeptVersions)
	touchDiskTime            = sqltext.Numbered(sqltext.TouchDiskTime)
	dropVersion              = sqltext.Numbered(sqltext.DropVersion)
	markDeleted              = sqltext.Numbered(sqltext.MarkDeleted)
	dropIfBare               = sqltext.Numbered(sqltext.DropIfBare)
	dropConversationVersions = sqltext.Numbered(sqltext.DropConversationVersions)
	dropConversationFiles    = sqltext.Numbered(sqltext.DropConversationFiles)
	dropConversationUsage    = sqltext.Numbered(sqltext.DropConversationUsage)
	usageOf                  = sqltext.Numbered(sqltext.UsageOf)
	keepVersion              = sqltext.Numbered(sqltext.KeepVersion)
	dropBareDeleted          = sqltext.Numbered(sqltext.DropBareDeleted)
)
