package ops

import (
	"archive/zip"
	"cmp"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"convfiles/files"
)

// Zip bounds: one archive holds at most MaxZipEntries files and
// MaxZipBytes of their content, decided before its first byte is sent.
const (
	MaxZipEntries = MaxFolderFiles
	MaxZipBytes   = 4 << 30
)

// zipBounds are the bounds PlanZip keeps (MaxZipEntries, MaxZipBytes);
// a test lowers them.
var zipBounds = struct {
	entries int
	bytes   int64
}{MaxZipEntries, MaxZipBytes}

// ZipIn says what an archive holds: files and folders of the
// conversation (a folder brings every file below it, and an empty
// folder its own entry), named in the archive from Base, the folder
// they were chosen in ("" for the top).
type ZipIn struct {
	Paths []string `json:"paths"`
	Base  string   `json:"base,omitempty"`
	// Name is the archive file that file_zip makes; a name that is
	// taken is a conflict unless Replace. The download route has none.
	Name    string `json:"name,omitempty"`
	Replace bool   `json:"replace,omitempty"`
}

// ZipOut answers file_zip: the archive made, how many files it holds
// and its size.
type ZipOut struct {
	IDName
	Files int   `json:"files"`
	Size  int64 `json:"size"`
}

// Zip is file_zip, files.zip: files and folders of the conversation as
// one zip archive, a new file of the conversation, written as each file
// is read (PlanZip's bounds, WriteZip's archive). The archive never holds
// an earlier version of itself.
func Zip(ctx context.Context, env Env, in ZipIn) (ZipOut, error) {
	name, err := files.ValidateName(in.Name)
	if err != nil {
		return ZipOut{}, err
	}
	plan, err := PlanZip(ctx, env.Space, in)
	if err != nil {
		return ZipOut{}, err
	}
	if i, found := slices.BinarySearch(plan.Files, name); found {
		plan.Files = slices.Delete(plan.Files, i, i+1)
	}
	opts := env.Write
	opts.NoReplace = !in.Replace
	w, err := env.Space.NewWriter(ctx, name, opts, false)
	if err != nil {
		return ZipOut{}, err
	}
	defer w.Abort()
	if err := WriteZip(ctx, env.Space, plan, w); err != nil {
		return ZipOut{}, err
	}
	info, err := w.Commit()
	if err != nil {
		return ZipOut{}, err
	}
	env.touched(info.Name, files.Wrote)
	return ZipOut{IDName: env.idName(info), Files: len(plan.Files), Size: info.Size}, nil
}

func init() {
	def(Op{Name: "zip", JS: "zip", Params: []string{"paths", "name", "...options"}, Tool: "file_zip", Effect: Writes, Sample: `{"name": "bundle.zip"}`}, Zip)
}

// ZipPlan is an archive's entries, checked and bounded, ready to write.
type ZipPlan struct {
	Files   []string // the files' names in the conversation, sorted
	Folders []string // empty folders, as their own entries
	Bytes   int64
	base    string
}

// PlanZip checks every path of in, and that the archive stays within
// MaxZipEntries and MaxZipBytes: a refusal comes before any byte is
// written, with what was too much. The .keep files of made folders are
// left out; the folders they keep become empty folder entries.
func PlanZip(ctx context.Context, sp files.Ops, in ZipIn) (ZipPlan, error) {
	const op = "zip"
	if len(in.Paths) == 0 {
		return ZipPlan{}, files.E(op, files.KindInvalid, "", "paths names the files and folders to put in the archive", nil)
	}
	base, err := FolderPrefix(cmp.Or(in.Base, "."))
	if err != nil {
		return ZipPlan{}, err
	}
	plan := ZipPlan{base: base}
	seen := map[string]bool{}
	add := func(name string, size int64) {
		if seen[name] {
			return
		}
		seen[name] = true
		if files.IsKeepFile(name, size) {
			plan.Folders = append(plan.Folders, path.Dir(name))
			return
		}
		plan.Files = append(plan.Files, name)
		plan.Bytes += size
	}
	for _, p := range in.Paths {
		name, err := files.ValidateName(strings.TrimSuffix(p, "/"))
		if err != nil {
			return ZipPlan{}, err
		}
		if !strings.HasPrefix(name, base) && name+"/" != base {
			return ZipPlan{}, files.E(op, files.KindInvalid, name, "is not in the folder "+cmp.Or(strings.TrimSuffix(base, "/"), ".")+" the archive is named from", nil)
		}
		if info, err := sp.Stat(ctx, name); err == nil {
			add(name, info.Size)
		} else if k := files.KindOf(err); k != files.KindNotFound && k != files.KindConflict { // conflict: a folder
			return ZipPlan{}, err
		} else {
			n := len(seen)
			if err := sp.Sizes(ctx, name+"/", add); err != nil {
				return ZipPlan{}, err
			}
			if len(seen) == n {
				return ZipPlan{}, files.E(op, files.KindNotFound, name, "no such file or folder", nil)
			}
		}
		if len(plan.Files) > zipBounds.entries {
			return ZipPlan{}, files.E(op, files.KindTooLarge, "", fmt.Sprintf("an archive holds at most %d files; choose fewer", zipBounds.entries), nil)
		}
	}
	if plan.Bytes > zipBounds.bytes {
		return ZipPlan{}, files.E(op, files.KindTooLarge, "", fmt.Sprintf("the files hold %s; an archive holds at most %s: choose fewer", files.FormatBytes(plan.Bytes), files.FormatBytes(zipBounds.bytes)), nil)
	}
	sort.Strings(plan.Files)
	plan.Folders = emptyFolders(plan.Folders, plan.Files)
	return plan, nil
}

// WriteZip writes the plan's archive to w as it reads each file, one at
// a time: its memory does not grow with the files. Formats that are
// compressed already (images, PDFs, office documents, archives) are
// stored as they are; the rest is deflated. An error part-way leaves a
// truncated archive, which the caller must not present as whole.
func WriteZip(ctx context.Context, sp files.Ops, plan ZipPlan, w io.Writer) error {
	zw := zip.NewWriter(w)
	// Deflate's fastest level: a few times the speed of archive/zip's
	// default for a little more size (BENCHMARKS.md), as the archive is
	// made while someone waits for it.
	// One compressor, from a pool, serves every entry in turn.
	fw := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(fw)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		fw.Reset(out)
		return fw, nil
	})
	for _, dir := range plan.Folders {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: strings.TrimPrefix(dir, plan.base) + "/", Method: zip.Store}); err != nil {
			return err
		}
	}
	for _, name := range plan.Files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := zipOne(ctx, sp, zw, name, strings.TrimPrefix(name, plan.base)); err != nil {
			return err
		}
	}
	return zw.Close()
}

func zipOne(ctx context.Context, sp files.Ops, zw *zip.Writer, name, entry string) error {
	blob, info, err := sp.Open(ctx, name)
	if err != nil {
		return err
	}
	defer blob.Close()
	method := zip.Deflate
	if storedAsIs[strings.ToLower(path.Ext(name))] {
		method = zip.Store
	}
	fw, err := zw.CreateHeader(&zip.FileHeader{Name: entry, Method: method, Modified: info.ModTime.UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	_, err = io.Copy(fw, blob)
	return err
}

// deflaters are flate writers at the fastest level, about 1 MiB each.
var deflaters = sync.Pool{New: func() any {
	fw, _ := flate.NewWriter(nil, flate.BestSpeed) // fails only for a bad level
	return fw
}}

// storedAsIs are the extensions of formats that deflate cannot shrink.
var storedAsIs = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".pdf": true,
	".zip": true, ".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true, ".7z": true,
	".xlsx": true, ".docx": true, ".pptx": true, ".odt": true, ".ods": true, ".mp3": true, ".mp4": true,
}

// emptyFolders keeps the folders that no file of the archive is in:
// the others are made by their files' entries.
func emptyFolders(folders, names []string) []string {
	sort.Strings(folders)
	out := folders[:0]
	for _, dir := range folders {
		i := sort.SearchStrings(names, dir+"/")
		if i == len(names) || !strings.HasPrefix(names[i], dir+"/") {
			out = append(out, dir)
		}
	}
	return out
}
