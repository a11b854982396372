package ops

import (
	"context"
	"sort"
	"strings"

	"convfiles/files"
)

// Tree bounds: how deep a tree goes by default and at most, and how many
// entries one answer lists.
const (
	DefaultTreeDepth = 3
	MaxTreeDepth     = 16
	MaxTreeEntries   = 2000
)

// ExistsOut says whether a name is a file, a folder, or nothing.
type ExistsOut struct {
	Exists bool   `json:"exists"`
	Kind   string `json:"kind,omitempty"` // "file" or "folder"
	Size   int64  `json:"size,omitempty"`
	ID     string `json:"id,omitempty"`
}

// Exists is file_exists, files.exists: never an error for a name that is
// not there, only for one that could never be.
func Exists(ctx context.Context, env Env, in FolderIn) (ExistsOut, error) {
	name, err := files.ValidateName(strings.TrimSuffix(in.Path, "/"))
	if err != nil {
		return ExistsOut{}, err
	}
	if info, err := env.Space.Stat(ctx, name); err == nil {
		return ExistsOut{Exists: true, Kind: "file", Size: info.Size, ID: info.ID}, nil
	}
	_, total, err := env.Space.Find(ctx, files.ListQuery{Prefix: name + "/", Limit: 1})
	if err != nil || total == 0 {
		return ExistsOut{}, err
	}
	return ExistsOut{Exists: true, Kind: "folder"}, nil
}

// TreeIn asks for the tree below a folder ("" for the top).
type TreeIn struct {
	Path  string `json:"path,omitempty"`
	Depth int    `json:"depth,omitempty"`
}

// TreeEntry is a file or a folder of a tree, by its path from the
// tree's folder; a folder has its total size and file count, at any
// depth.
type TreeEntry struct {
	Path  string `json:"path"`
	Type  string `json:"type"` // "file" or "folder"
	Size  int64  `json:"size"`
	Files int    `json:"files,omitempty"`
}

// TreeOut is a folder's totals and its entries down to the depth asked,
// depth first, folders before files at each level; Truncated says they
// were cut at MaxTreeEntries.
type TreeOut struct {
	Path      string      `json:"path"`
	Size      int64       `json:"size"`
	Files     int         `json:"files"`
	Entries   []TreeEntry `json:"entries"`
	Truncated bool        `json:"truncated,omitempty"`
}

// treeNode is a folder or file while the tree is built.
type treeNode struct {
	TreeEntry
	children []*treeNode
}

// Tree is file_tree, files.tree: folders and files with sizes, folders
// first, each level by name; below depth a folder shows only its totals.
// The empty .keep files of made folders are neither counted nor listed.
func Tree(ctx context.Context, env Env, in TreeIn) (TreeOut, error) {
	depth := in.Depth
	if depth == 0 {
		depth = DefaultTreeDepth
	}
	if depth < 1 || depth > MaxTreeDepth {
		return TreeOut{}, files.E("tree", files.KindInvalid, "", "depth is 1 to 16 levels", nil)
	}
	root, prefix := ".", ""
	if in.Path != "" && in.Path != "." && in.Path != "/" {
		p, err := folderPath(in.Path)
		if err != nil {
			return TreeOut{}, err
		}
		root, prefix = p, p+"/"
	}
	top := &treeNode{TreeEntry: TreeEntry{Path: root, Type: "folder"}}
	out := TreeOut{Path: root, Entries: []TreeEntry{}}
	b := treeBuilder{top: top, depth: depth, folders: map[string]*treeNode{}, out: &out}
	if err := env.Space.Sizes(ctx, prefix, func(name string, size int64) { b.add(strings.TrimPrefix(name, prefix), size) }); err != nil {
		return TreeOut{}, err
	}
	if prefix != "" && !b.seen {
		return TreeOut{}, folderNotFound(ctx, "tree", env.Space, root)
	}
	out.Size, out.Files = top.Size, top.Files
	out.Entries = flatten(top, out.Entries)
	return out, nil
}

// treeBuilder adds files to a tree, counting each in every folder above
// it and listing it, or its folder, down to depth.
type treeBuilder struct {
	top     *treeNode
	depth   int
	folders map[string]*treeNode
	entries int
	seen    bool // a file, .keep included, is below the tree's folder
	out     *TreeOut
}

// add counts a file by its path from the tree's folder.
func (b *treeBuilder) add(rel string, size int64) {
	b.seen = true
	// A made folder's .keep is what holds it, not one of its files.
	counted := 1
	if files.IsKeepFile(rel, size) {
		counted = 0
	}
	parent := b.top
	parent.Size += size
	parent.Files += counted
	start := 0
	for range b.depth {
		slash := strings.IndexByte(rel[start:], '/')
		if slash < 0 { // the file itself
			if rel[start:] != KeepFile && b.room() {
				parent.children = append(parent.children, &treeNode{TreeEntry: TreeEntry{Path: rel, Type: "file", Size: size}})
			}
			return
		}
		key := rel[:start+slash]
		dir, ok := b.folders[key]
		if !ok {
			if !b.room() {
				return
			}
			dir = &treeNode{TreeEntry: TreeEntry{Path: key, Type: "folder"}}
			b.folders[key] = dir
			parent.children = append(parent.children, dir)
		}
		dir.Size += size
		dir.Files += counted
		parent = dir
		start += slash + 1
	}
}

// room takes one of the answer's MaxTreeEntries, or says there is none.
func (b *treeBuilder) room() bool {
	if b.entries == MaxTreeEntries {
		b.out.Truncated = true
		return false
	}
	b.entries++
	return true
}

// flatten appends n's descendants depth first, each level folders first,
// then by name.
func flatten(n *treeNode, out []TreeEntry) []TreeEntry {
	sort.SliceStable(n.children, func(i, j int) bool {
		a, b := n.children[i], n.children[j]
		if a.Type != b.Type {
			return a.Type == "folder"
		}
		return a.Path < b.Path
	})
	for _, c := range n.children {
		out = append(out, c.TreeEntry)
		out = flatten(c, out)
	}
	return out
}

func init() {
	def(Op{Name: "exists", JS: "exists", Params: []string{"path"}, Tool: "file_exists", Effect: Reads}, Exists)
	def(Op{Name: "tree", JS: "tree", Params: []string{"path", "...options"}, Tool: "file_tree", Effect: Reads}, Tree)
}
