// Package files is the domain of convfiles: conversation IDs and file names,
// the Store that owns the data directory, the per-conversation Space through
// which every read and write goes, the limits that bound them, the event bus
// that reports every change, and the one error type all of it returns.
//
// Nothing here knows about HTTP, SQL or JavaScript. Every path that comes from
// a user is validated by ValidateName or ValidateConversationID and then opened
// through the conversation's os.Root, so a name can never leave its folder.
package files
