package routes

import (
	"net/http"
	"strconv"
	"time"

	"convfiles/auth"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/ops"

	"github.com/gorilla/mux"
)

// Paging bounds of file listings.
const (
	defaultPageSize = 100
	maxPageSize     = 1000
)

// registerAPI adds the REST API of the file workspace under /api/.
func (s *Server) registerAPI(r *mux.Router) {
	api := r.PathPrefix("/api").Subrouter()
	api.HandleFunc("/conversations", s.handleConversations).Methods(http.MethodGet)
	api.HandleFunc("/conversations/{conversation}", s.handleDeleteConversation).Methods(http.MethodDelete)
	api.HandleFunc("/conversations/{conversation}/files", s.handleListFiles).Methods(http.MethodGet)
	api.HandleFunc("/conversations/{conversation}/zip", s.handleZip).Methods(http.MethodGet)
	api.HandleFunc("/files/upload", s.handleUpload).Methods(http.MethodPost)
	api.HandleFunc("/files/{id}", s.handleFileInfo).Methods(http.MethodGet)
	api.HandleFunc("/files/{id}", s.handleDeleteFile).Methods(http.MethodDelete)
	api.HandleFunc("/files/{id}/download", s.handleDownload).Methods(http.MethodGet, http.MethodHead)
	api.HandleFunc("/files/{id}/view", s.handleView).Methods(http.MethodGet, http.MethodHead)
	api.HandleFunc("/files/{id}/preview", s.handlePreview).Methods(http.MethodGet)
	api.HandleFunc("/files/{id}/thumbnail", s.handleThumbnail).Methods(http.MethodGet, http.MethodHead)
	api.HandleFunc("/files/{id}/rename", s.handleRename).Methods(http.MethodPost)
	api.HandleFunc("/files/{id}/copy", s.handleCopy).Methods(http.MethodPost)
	api.HandleFunc("/files/{id}/versions", s.handleVersions).Methods(http.MethodGet)
	api.HandleFunc("/files/{id}/versions/{version}/download", s.handleVersionDownload).Methods(http.MethodGet, http.MethodHead)
	api.HandleFunc("/files/{id}/versions/{version}/restore", s.handleRestore).Methods(http.MethodPost)
	api.HandleFunc("/events", s.handleEvents).Methods(http.MethodGet)
	api.HandleFunc("/tokens", s.handleMintToken).Methods(http.MethodPost)
	s.registerOps(api)
}

// fileJSON is a file as the REST API shows it: seed 004's metadata plus
// where to get its bytes.
type fileJSON struct {
	files.Record
	URL         string `json:"url"`
	DownloadURL string `json:"download_url"`
	ViewURL     string `json:"view_url"`
	// PreviewURL is set for images, PDFs and spreadsheets, ThumbnailURL
	// for images.
	PreviewURL   string `json:"preview_url,omitempty"`
	ThumbnailURL string `json:"thumbnail_url,omitempty"`
}

func (s *Server) fileJSON(rec files.Record) fileJSON {
	base := apiURL(s.links, "/api/files/"+rec.ID)
	j := fileJSON{Record: rec, URL: s.links.URL(rec.Conversation, rec.Name), DownloadURL: base + "/download", ViewURL: base + "/view"}
	switch formats.PreviewKind(rec.Name, rec.MIME) {
	case formats.PreviewImage:
		j.ThumbnailURL = base + "/thumbnail"
		fallthrough
	case formats.PreviewPDF, formats.PreviewSpreadsheet:
		j.PreviewURL = base + "/preview"
	}
	return j
}

func (s *Server) handleConversations(w http.ResponseWriter, r *http.Request) {
	err := ops.AuthorizeScope(r.Context(), auth.Read)
	var list []files.ConversationInfo
	if err == nil {
		list, err = s.store.Conversations(r.Context())
	}
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	seen := []files.ConversationInfo{}
	for _, c := range list {
		if reaches(r.Context(), c.ID) {
			seen = append(seen, c)
		}
	}
	writeResult(w, map[string]any{"conversations": seen})
}

func (s *Server) handleDeleteConversation(w http.ResponseWriter, r *http.Request) {
	conv, err := pathVar(r, "conversation")
	if err == nil {
		err = s.removeConversation(r.Context(), conv)
	}
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	writeResult(w, map[string]any{"deleted": true, "conversation": conv})
}

// handleListFiles lists one page of a conversation's files:
// ?pattern=*.csv&sort=name|size|modified&order=asc|desc&limit=100&offset=0;
// hide_keep=true leaves out the .keep files of made folders.
func (s *Server) handleListFiles(w http.ResponseWriter, r *http.Request) {
	s.answer(w, r, func() (any, error) { return s.listFiles(r) })
}

func (s *Server) listFiles(r *http.Request) (any, error) {
	conv, err := pathVar(r, "conversation")
	if err != nil {
		return nil, err
	}
	q, err := listQuery(r)
	if err != nil {
		return nil, err
	}
	sp, err := s.open(r.Context(), conv, auth.Read)
	if err != nil {
		return nil, err
	}
	defer sp.Close()
	// Read before the listing: a client that streams events after this id
	// misses nothing that happened while it listed.
	var lastEvent int64
	if ix := s.store.Index(); ix != nil {
		if _, lastEvent, err = ix.EventRange(r.Context()); err != nil {
			return nil, err
		}
	}
	recs, total, err := sp.Find(r.Context(), q)
	if err != nil {
		return nil, err
	}
	return map[string]any{"files": s.filesJSON(recs), "total": total, "offset": q.Offset, "limit": q.Limit, "last_event_id": lastEvent}, nil
}

// answer writes what fn returns as a result envelope, or its error.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, fn func() (any, error)) {
	result, err := fn()
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	writeResult(w, result)
}

// filesJSON shows records as the API does.
func (s *Server) filesJSON(recs []files.Record) []fileJSON {
	out := make([]fileJSON, len(recs))
	for i, rec := range recs {
		out[i] = s.fileJSON(rec)
	}
	return out
}

func listQuery(r *http.Request) (files.ListQuery, error) {
	v := r.URL.Query()
	q := files.ListQuery{Pattern: v.Get("pattern"), Limit: defaultPageSize}
	if folder := v.Get("folder"); folder != "" {
		prefix, err := ops.FolderPrefix(folder)
		if err != nil {
			return q, err
		}
		q.Prefix, q.Direct = prefix, true
	}
	switch h := v.Get("hide_keep"); h {
	case "", "0", "false":
	case "1", "true":
		q.Skip = ops.KeepFile
	default:
		return q, files.E("list", files.KindInvalid, h, "hide_keep is true or false", nil)
	}
	switch d := v.Get("deleted"); d {
	case "", "0", "false":
	case "1", "true":
		q.Deleted = true
	default:
		return q, files.E("list", files.KindInvalid, d, "deleted is true or false", nil)
	}
	switch key := files.SortKey(v.Get("sort")); key {
	case "", files.SortName, files.SortSize, files.SortModified:
		q.Sort = key
	case files.SortDeleted:
		if !q.Deleted {
			return q, files.E("list", files.KindInvalid, string(key), "sort by deleted lists deleted files: add deleted=true", nil)
		}
		q.Sort = key
	default:
		return q, files.E("list", files.KindInvalid, string(key), "sort by name, size, modified or (deleted files) deleted", nil)
	}
	switch o := v.Get("order"); o {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, files.E("list", files.KindInvalid, o, "order is asc or desc", nil)
	}
	for _, p := range []struct {
		key      string
		dst      *int
		min, max int
	}{{"limit", &q.Limit, 1, maxPageSize}, {"offset", &q.Offset, 0, 1 << 30}} {
		if raw := v.Get(p.key); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n < p.min || n > p.max {
				return q, files.E("list", files.KindInvalid, raw, p.key+" must be a whole number from "+strconv.Itoa(p.min)+" to "+strconv.Itoa(p.max), nil)
			}
			*p.dst = n
		}
	}
	return q, nil
}

// pathVar returns a route variable, decoded once from the escaped path.
func pathVar(r *http.Request, key string) (string, error) {
	raw := mux.Vars(r)[key]
	v, err := unescape(raw)
	if err != nil {
		return "", files.E("route", files.KindInvalid, raw, "malformed percent-encoding in "+key, nil)
	}
	return v, nil
}

// modifiedOn formats a time as the API does: RFC 3339, UTC.
func modifiedOn(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
