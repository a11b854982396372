package mcp

import (
	"context"

	"convfiles/auth"
	"convfiles/content"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/prompts"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
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
	conv, err := s.conversation(ctx, req.Params.Arguments["conversation_id"], auth.Read)
	if err != nil {
		return nil, invalidParams(files.MessageOf(err))
	}
	text, err := ConversationPrompt(s.cfg.Store, conv, s.cfg.Link)
	if err != nil {
		return nil, err
	}
	return &sdk.GetPromptResult{
		Description: "convfiles: the files of conversation " + conv,
		Messages: []*sdk.PromptMessage{{
			Role:    "user",
			Content: &sdk.TextContent{Text: text},
		}},
	}, nil
}

// ConversationPrompt is the system prompt with the first files of a
// conversation listed, each with its link when link is set: the MCP
// prompt, and what convfiles prompt --conversation prints.
func ConversationPrompt(store *engine.Store, conv string, link func(conversation, name string) string) (string, error) {
	var list []prompts.File
	total := 0
	if ix := store.Index(); ix != nil {
		recs, n, err := ix.List(context.Background(), conv, files.ListQuery{Limit: promptFiles})
		if err != nil {
			return "", err
		}
		total = n
		for _, rec := range recs {
			f := prompts.File{ID: rec.ID, Name: rec.Name, Size: rec.Size, MIME: content.RecordedMIME(rec.Name, rec.MIME)}
			if link != nil {
				f.URL = link(conv, rec.Name)
			}
			list = append(list, f)
		}
	}
	return prompts.ForConversation(conv, list, total), nil
}
