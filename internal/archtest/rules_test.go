package archtest

// rule is what one package may depend on.
type rule struct {
	// mayImport lists the convfiles packages the package may depend on,
	// directly or through others: an entry is one package, or a tree
	// when it ends in "/...".
	mayImport []string
	// mustNot lists outside packages forbidden, directly or not (exact,
	// or a tree below it).
	mustNot []string
	// ownNot lists outside packages the package itself must not import.
	ownNot []string
}

// leaves are the small helpers anything may use.
var leaves = []string{"internal/bytesize", "internal/textdiff"}

func may(pkgs ...string) []string { return append(pkgs, leaves...) }

// storage is what a storage implementation may import: the domain, the
// driver interface it satisfies, and the helpers the SQL databases share.
// Never auth, never the engine, never another implementation.
var storage = may("files", "files/driver", "internal/sqltext", "internal/keyrows")

// noDoors are the outside packages the inner rooms never depend on.
var noDoors = []string{"net/http", "github.com/dop251/goja", "github.com/yuin/gopher-lua"}

// rules lists, for each convfiles package, what it may depend on. The
// rooms, from the inside out: the domain (files), the driver interface
// (files/driver), the engine that keeps the rules over a driver
// (engine), the storage implementations (peers: sqlite, postgres,
// s3blobs), the operations table (ops), the runtimes and the doors.
var rules = map[string]rule{
	"content": {mayImport: leaves},
	// the format helpers work on bytes: no files, no doors.
	"content/images": {mayImport: may("content", "content/images/jpegscaled")},
	// jpegscaled decodes JPEG bytes at a reduced size: nothing of convfiles.
	"content/images/jpegscaled": {},
	"content/pdfs":              {mayImport: may("content")},
	"content/spreadsheet":       {mayImport: may("content")},
	"content/charts":            {mayImport: may("content")},
	"content/reports":           {mayImport: may("content")},
	// files is the domain: what a conversation's files are and what can
	// be done to them. It imports no other room.
	"files": {mayImport: leaves, mustNot: append([]string{"database/sql", "modernc.org/sqlite"}, noDoors...)},
	// files/driver is the interface every index and blob store
	// satisfies: no SQL, no implementation, no engine.
	"files/driver": {mayImport: may("files"), mustNot: append([]string{"database/sql", "github.com/jackc/pgx/v5"}, noDoors...)},
	// the conformance suites of the storage seam see only the interfaces.
	"files/driver/blobtest":  {mayImport: may("files", "files/driver"), ownNot: []string{"os"}, mustNot: []string{"net/http", "database/sql"}},
	"files/driver/indextest": {mayImport: may("files", "files/driver", "internal/keyrows"), ownNot: []string{"os"}, mustNot: []string{"net/http", "database/sql"}},
	// engine keeps the rules (names, limits, versions, conflicts) over
	// any driver; it names no implementation.
	"engine":            {mayImport: may("files", "files/driver"), mustNot: append([]string{"database/sql", "modernc.org/sqlite", "github.com/jackc/pgx/v5"}, noDoors...)},
	"engine/enginetest": {mayImport: may("files", "files/driver", "engine"), mustNot: []string{"net/http", "database/sql"}},
	// the storage implementations are peers.
	"sqlite":   {mayImport: storage, mustNot: noDoors},
	"postgres": {mayImport: storage, mustNot: append([]string{"modernc.org/sqlite"}, noDoors...)},
	// s3blobs speaks S3's HTTP API to its server, and serves none.
	"s3blobs": {mayImport: may("files", "files/driver", "internal/lru"), mustNot: []string{"database/sql", "modernc.org/sqlite", "github.com/dop251/goja", "github.com/yuin/gopher-lua"}},
	// formats applies the helpers to a conversation's files for every door.
	"formats": {mayImport: may("files", "content/..."), ownNot: []string{"net/http"}},
	// ops is the one table of operations every door adapts: it speaks no
	// HTTP (the PDF library links it), knows no SQL and no script engine.
	"ops": {mayImport: may("files", "content/...", "formats", "auth", "internal/keyrows", "internal/signing"),
		ownNot: []string{"net/http"}, mustNot: []string{"database/sql", "github.com/dop251/goja"}},
	"prompts": {},
	// auth says who is asking: credentials, scopes, tokens. It speaks no
	// HTTP (auth/idp fetches an identity provider's keys) and knows no SQL.
	"auth":     {mayImport: may("files", "internal/keyrows", "internal/signing"), mustNot: []string{"net/http", "database/sql"}},
	"auth/idp": {mayImport: may("auth", "files", "internal/keyrows", "internal/signing"), mustNot: []string{"database/sql"}},
	// runtime is the run core every language shares: it knows no
	// interpreter (no goja, no gopher-lua, no esbuild) and no door.
	"runtime": {mayImport: may("files", "files/driver", "engine", "content/...", "formats", "ops", "auth", "internal/keyrows", "prompts", "internal/signing"),
		ownNot: []string{"net/http"}, mustNot: []string{"github.com/dop251/goja", "github.com/yuin/gopher-lua", "github.com/evanw/esbuild"}},
	// runtime/js runs JavaScript and TypeScript in goja over the core;
	// esbuild's API package links net/http for its dev server, which the
	// interpreter never starts.
	"runtime/js": {mayImport: may("runtime", "files", "files/driver", "engine", "content/...", "formats", "ops", "auth", "internal/keyrows", "prompts", "runtime/lint", "internal/signing"),
		ownNot: []string{"net/http"}, mustNot: []string{"github.com/yuin/gopher-lua"}},
	// runtime/lua is the Lua interpreter over the run core: it imports
	// what the core does, and no door.
	"runtime/lua": {mayImport: may("runtime", "runtime/lua/luau", "files", "files/driver", "engine", "content/...", "formats", "ops", "auth", "internal/keyrows", "prompts", "internal/signing", "internal/lru"),
		ownNot: []string{"net/http"}, mustNot: []string{"github.com/dop251/goja", "github.com/evanw/esbuild"}},
	// runtime/lua/luau lowers Luau source to Lua 5.1: text in, text out,
	// nothing of convfiles and no interpreter.
	"runtime/lua/luau": {mustNot: []string{"github.com/yuin/gopher-lua", "github.com/dop251/goja"}},
	// runtime/runtimetest runs scripts in tests over a real store.
	"runtime/runtimetest": {mayImport: may("runtime", "files", "files/driver", "engine", "content/...", "formats", "ops", "auth", "internal/keyrows", "prompts", "internal/signing"),
		mustNot: []string{"github.com/dop251/goja", "github.com/yuin/gopher-lua"}},
	// runtime/lint runs ESLint's rules in goja: no files, no doors.
	"runtime/lint": {ownNot: []string{"net/http", "os"}},
	// runtime/lint/genbundle rebuilds ESLint's bundle (go generate).
	"runtime/lint/genbundle": {},
	// sandbox runs the runtime and formats in worker processes and serves
	// their file operations: it speaks no HTTP and knows no SQL.
	"sandbox": {mayImport: may("files", "files/driver", "engine", "content/...", "formats", "ops", "auth", "internal/keyrows", "runtime", "runtime/lint", "prompts", "internal/links", "internal/signing"),
		ownNot: []string{"net/http"}, mustNot: []string{"modernc.org/sqlite"}},
	// routes and routes/mcp are two doors over the same packages: neither
	// imports the other, and neither names a storage implementation.
	"routes": {mayImport: may("files", "files/driver", "engine", "content/...", "formats", "ops", "auth", "internal/keyrows", "runtime", "runtime/lint", "prompts",
		"internal/links", "internal/signing", "internal/metrics", "internal/lru", "internal/formparts")},
	"routes/mcp": {mayImport: may("files", "files/driver", "engine", "content/...", "formats", "ops", "auth", "internal/keyrows", "runtime", "runtime/lint", "prompts", "internal/signing"),
		mustNot: []string{"modernc.org/sqlite"}},
	// cmd/convfiles wires everything; nothing imports it.
	"cmd/convfiles": {mayImport: []string{"..."}},
	// bench/linkanchors serves the anchors a benchmark script measures
	// links against: nothing of convfiles.
	"bench/linkanchors": {},
	// bench/mcpanchor is the floor a benchmark script measures the MCP
	// door against: the MCP SDK alone, nothing of convfiles.
	"bench/mcpanchor": {},
	// the small internal helpers each do one thing and import no room.
	"internal/textdiff":   {},
	"internal/bytesize":   {},
	"internal/peakrss":    {},
	"internal/lru":        {},
	"internal/formparts":  {},
	"internal/needs":      {},
	"internal/keyrows":    {},
	"internal/testserver": {},
	"internal/sqltext":    {mayImport: may("files")},
	"internal/archtest":   {},
	"internal/benchrun":   {},
	"internal/docs":       {},
	"internal/fetch":      {},
	"internal/samples":    {},
	"internal/signing":    {},
	"internal/tokens":     {},
	"internal/links":      {mayImport: []string{"internal/signing"}},
	"internal/metrics":    {mayImport: may("files")},
	// internal/storetest and internal/hostile open a real store for tests.
	"internal/storetest": {mayImport: may("files", "files/driver", "engine", "sqlite", "content", "internal/keyrows", "internal/sqltext", "internal/samples")},
	"internal/hostile":   {mayImport: may("files", "files/driver", "engine", "sqlite", "content", "internal/keyrows", "internal/sqltext", "internal/samples", "internal/storetest")},
	// internal/pgserver and internal/s3server start throwaway servers for
	// tests and benchmarks; nothing that ships imports them.
	"internal/pgserver": {mayImport: []string{"internal/testserver", "internal/needs"}},
	"internal/s3server": {mayImport: []string{"internal/testserver", "internal/needs"}},
}
