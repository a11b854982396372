// Package prompts holds the texts convfiles gives to language models: the
// system-prompt section that teaches the file helpers, embedded in the
// binary so that the server, the CLI (convfiles prompt) and later the MCP
// server all hand out the same words.
package prompts
