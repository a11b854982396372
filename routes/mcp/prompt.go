package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/files"
	"convfiles/prompts"
)

// PromptName is the name of the MCP prompt that teaches the file helpers.
const PromptName = "convfiles"

// promptFiles caps the files the prompt lists; it says how many more there
// are and how to list them.
const promptFiles = 200

// registerPrompt adds the system prompt with the conversation's files
// filled in.
func (s *Server) registerPrompt() {
	shared, _ := prompts.Tool(prompts.SharedTool)
	s.sdk.AddPrompt(&sdk.Prompt{
		Name:        PromptName,
		Title:       "convfiles: files of a conversation",
		Description: "How to read and write this conversation's files from scripts and tools, with the list of its files.",
		Arguments: []*sdk.PromptArgument{{
			Name:        "conversation_id",
			Description: shared.Params["conversation_id"],
			Required:    s.cfg.Conversation == "",
		}},
	}, s.getPrompt)
}

func (s *Server) getPrompt(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	conv, err := s.conversation(req.Params.Arguments["conversation_id"])
	if err != nil {
		return nil, invalidParams(files.MessageOf(err))
	}
	var list []prompts.File
	total := 0
	if ix := s.cfg.Store.Index(); ix != nil {
		recs, n, err := ix.List(conv, files.ListQuery{Limit: promptFiles})
		if err != nil {
			return nil, err
		}
		total = n
		for _, rec := range recs {
			e := s.entry(rec)
			list = append(list, prompts.File{ID: e.ID, Name: e.Name, Size: e.Size, MIME: e.MIME, URL: e.URL})
		}
	}
	return &sdk.GetPromptResult{
		Description: "convfiles: the files of conversation " + conv,
		Messages: []*sdk.PromptMessage{{
			Role:    "user",
			Content: &sdk.TextContent{Text: prompts.ForConversation(conv, list, total)},
		}},
	}, nil
}
