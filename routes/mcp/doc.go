// Package mcp is convfiles' Model Context Protocol door, built on the
// official Go SDK. It offers the same operations as the other doors over
// the same Store, Runner and events: seed 004's meta-tools (file_list,
// file_read_text, …) and execute_script as tools, each file of a
// conversation as a resource (convfiles://{conversation_id}/{name}) with
// subscriptions and change notifications, and the system prompt as a
// prompt. One Server answers both transports: stdio (convfiles mcp) and
// streamable HTTP (/mcp of convfiles serve).
//
// Tool failures a model can fix (a bad name, a missing file, a limit) come
// back as tool results with isError and a message that says what to do
// instead; protocol errors are kept for protocol faults.
//
// mcp must never import routes or a storage implementation.
package mcp
