package mcp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"convfiles/ops"
)

// The tool groups a server can offer. CoreTools, the default, is what an
// agent reaches for, at most 15 tools: list, tree, read, read media,
// write, edit, search, info, copy, rename, delete, folders and
// execute_script. The others add the rest of the file operations (line
// and byte edits, versions, downloads) and the format tools.
const (
	CoreTools        = "core"
	FileTools        = "files"
	SpreadsheetTools = "spreadsheet"
	PDFTools         = "pdf"
	ImageTools       = "image"
	ChartTools       = "chart"
	AllTools         = "all"
	// MetaclawTools offers exactly seed 004's tools (metaclaw's file
	// workspace), by its names, for its clients.
	MetaclawTools = "metaclaw"
)

// ToolGroups lists the groups, for usage messages.
var ToolGroups = []string{CoreTools, FileTools, SpreadsheetTools, PDFTools, ImageTools, ChartTools, AllTools, MetaclawTools}

// coreTools are the tools of the core group.
var coreTools = []string{
	"file_list", "file_tree", "file_read_text", "file_read_media", "file_write_text", "file_edit", "file_search",
	"file_info", "file_copy", "file_rename", "file_delete", "folder_create", "folder_move", "folder_delete", "execute_script",
}

// metaclawTools are seed 004's tools: its file meta-tools, then one for
// every method of its format APIs.
var metaclawTools = []string{
	"file_list", "file_info", "file_read_text", "file_write_text", "file_replace_lines", "file_create", "file_delete", "file_download",
	"spreadsheet_list_sheets", "spreadsheet_read_range", "spreadsheet_write_range", "spreadsheet_read_cell", "spreadsheet_write_cell",
	"spreadsheet_add_sheet", "spreadsheet_delete_sheet", "spreadsheet_insert_rows", "spreadsheet_delete_rows", "spreadsheet_set_format",
	"spreadsheet_auto_filter", "spreadsheet_get_sheet_summary",
	"pdf_info", "pdf_extract_text", "pdf_add_page", "pdf_delete_page", "pdf_add_text", "pdf_add_image", "pdf_get_form_fields",
	"pdf_fill_form", "pdf_merge", "pdf_split_pages",
	"image_info", "image_resize", "image_crop", "image_convert", "image_composite", "image_to_base64",
}

// CoreToolNames lists the tools of the core group, sorted.
func CoreToolNames() []string { return slices.Sorted(slices.Values(coreTools)) }

// toolGroup is the group a tool belongs to besides core: the operation's
// format group, or files; execute_script is core's alone.
func toolGroup(tool string) string {
	if tool == "execute_script" {
		return CoreTools
	}
	for _, op := range ops.All() {
		if op.Tool == tool && op.Group != "" {
			return op.Group
		}
	}
	return FileTools
}

// ParseToolGroups checks a list of groups ("core,pdf" splits at commas)
// and returns them; an empty list is the core group.
func ParseToolGroups(list []string) ([]string, error) {
	var out []string
	for _, item := range list {
		for _, g := range strings.Split(item, ",") {
			g = strings.TrimSpace(g)
			if g == "" {
				continue
			}
			if !slices.Contains(ToolGroups, g) {
				return nil, fmt.Errorf("there is no tool group %q; the groups are %s", g, strings.Join(ToolGroups, ", "))
			}
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		out = []string{CoreTools}
	}
	sort.Strings(out)
	return slices.Compact(out), nil
}

// offers reports whether the server's groups include tool.
func (s *Server) offers(tool string) bool {
	for _, g := range s.groups {
		switch {
		case g == AllTools,
			g == CoreTools && slices.Contains(coreTools, tool),
			g == MetaclawTools && slices.Contains(metaclawTools, tool),
			g == toolGroup(tool):
			return true
		}
	}
	return false
}
