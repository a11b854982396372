package mcp

// registerTools adds every tool. The file tools mirror seed 004's
// meta-tools and the files.* helpers of scripts; execute_script is seed
// 001's script tool.
func (s *Server) registerTools() error {
	read := hints{readOnly: true}
	write := hints{}
	destroy := hints{destructive: true}
	steps := []error{
		addFileTool(s, "file_list", read, s.fileList),
		addFileTool(s, "file_info", read, s.fileInfo),
		addFileTool(s, "file_read_text", read, s.fileReadText),
		addFileTool(s, "file_write_text", destroy, s.fileWriteText),
		addFileTool(s, "file_replace_lines", destroy, s.fileReplaceLines),
		addFileTool(s, "file_insert_lines", write, s.fileInsertLines),
		addFileTool(s, "file_search_text", read, s.fileSearchText),
		addFileTool(s, "file_create", write, s.fileCreate),
		addFileTool(s, "file_copy", write, s.fileCopy),
		addFileTool(s, "file_rename", write, s.fileRename),
		addFileTool(s, "file_delete", destroy, s.fileDelete),
		addFileTool(s, "file_download", hints{openWorld: true}, s.fileDownload),
		addFileTool(s, "file_versions", read, s.fileVersions),
		addFileTool(s, "file_restore", destroy, s.fileRestore),
		s.addMediaTool(),
	}
	if s.cfg.Runner != nil {
		steps = append(steps, s.addScriptTool())
	}
	for _, err := range steps {
		if err != nil {
			return err
		}
	}
	return nil
}

// addMediaTool registers file_read_media, whose answer is content (an
// image or an embedded resource) rather than JSON.
func (s *Server) addMediaTool() error {
	return addTool(s, "file_read_media", hints{readOnly: true}, nil, s.fileReadMedia)
}
