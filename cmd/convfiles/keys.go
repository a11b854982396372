package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"convfiles/auth"
	"convfiles/files"
	"convfiles/internal/bytesize"
	"convfiles/internal/signing"
)

const keysUsage = `usage: convfiles keys <create|list|revoke|signing-key> [flags]

  create --name NAME --scopes read,write[,execute,admin] [--tenant PREFIX | --conversations ID,ID]
         [--max-bytes SIZE]
         prints the new API key once; only its hash is stored
  list   [--json]   the keys, their scopes and binding (never the key itself)
  revoke ID         the key and every token it minted stop working at once
  signing-key [--id ID]
         prints a new signing key for [auth] signing_keys or CONVFILES_SIGNING_KEYS`

// cmdKeys manages the API keys of hosted mode, kept in the index.
func cmdKeys(e *env, args []string) error {
	args = subcommandFirst(args)
	if len(args) == 0 {
		return usagef("%s", keysUsage)
	}
	switch args[0] {
	case "create":
		return keysCreate(e, args[1:])
	case "list":
		return keysList(e, args[1:])
	case "revoke":
		return keysRevoke(e, args[1:])
	case "signing-key":
		return keysSigningKey(e, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(e.stdout, keysUsage)
		return nil
	}
	return usagef("unknown keys command %q\n%s", args[0], keysUsage)
}

// subcommandFirst moves the subcommand before the shared flags when they
// come first: "keys --config c.toml list" is "keys list --config c.toml".
func subcommandFirst(args []string) []string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--config" || a == "-config" || a == "--data-dir" || a == "-data-dir":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return append([]string{a}, append(append([]string{}, args[:i]...), args[i+1:]...)...)
		}
	}
	return args
}

// openedKeys is the keys of an open index; Close closes the index.
type openedKeys struct {
	auth.KeyStore
	io.Closer
}

// openKeys opens the index that keeps the keys.
func openKeys(cfg Config) (openedKeys, error) {
	ix, err := openIndex(cfg)
	if err != nil {
		return openedKeys{}, err
	}
	return openedKeys{auth.StoredKeys(ix), ix}, nil
}

func keysCreate(e *env, args []string) error {
	f := newFlags(e, "keys create", "")
	name := f.String("name", "", "what the key is for, shown in listings (required)")
	scopes := f.String("scopes", "", "comma-separated: read, write, execute, admin (required)")
	tenant := f.String("tenant", "", `bind the key to conversations whose ID starts with this prefix (ending in "-" or "_")`)
	convs := f.String("conversations", "", "bind the key to these conversations (comma-separated)")
	maxBytes := f.String("max-bytes", "", "the key's quota: what all its conversations may hold together (10GiB); default: none")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *name == "" || *scopes == "" {
		return usagef("keys create needs --name and --scopes")
	}
	sc, err := auth.ParseScopes(*scopes)
	if err != nil {
		return usagef("--scopes: %v", files.MessageOf(err))
	}
	var list []string
	if *convs != "" {
		list = strings.Split(*convs, ",")
	}
	secret, k, err := auth.NewKey(*name, sc, *tenant, list)
	if err != nil {
		return usagef("%v", files.MessageOf(err))
	}
	if *maxBytes != "" {
		if k.MaxBytes, err = bytesize.Parse(*maxBytes); err != nil || k.MaxBytes == 0 {
			return usagef("--max-bytes: give the quota as bytes or with KiB, MiB, GiB or TiB (10GiB), above 0; leave it out for none")
		}
	}
	ix, err := openKeys(cfg)
	if err != nil {
		return err
	}
	defer ix.Close()
	if err := auth.CheckTenantFree(context.Background(), ix, k.Tenant); err != nil {
		return err
	}
	if err := ix.CreateKey(context.Background(), k); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, secret)
	fmt.Fprintf(e.stderr, "created key %s (%s, scopes %s, %s); it is shown only this once: store it now\n", k.ID, k.Name, k.Scopes, binding(k))
	return nil
}

// binding says what a key reaches, and how much they may hold.
func binding(k auth.Key) string {
	reaches := "every conversation"
	switch {
	case k.Tenant != "":
		reaches = "tenant " + k.Tenant
	case len(k.Conversations) > 0:
		reaches = "conversations " + strings.Join(k.Conversations, ",")
	}
	if k.MaxBytes > 0 {
		reaches += ", at most " + bytesize.Format(k.MaxBytes) + " together"
	}
	return reaches
}

func keysList(e *env, args []string) error {
	f := newFlags(e, "keys list", "")
	asJSON := f.Bool("json", false, "print JSON")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	ix, err := openKeys(cfg)
	if err != nil {
		return err
	}
	defer ix.Close()
	keys, err := ix.Keys(context.Background())
	if err != nil {
		return err
	}
	if *asJSON {
		type keyJSON struct {
			ID            string     `json:"id"`
			Name          string     `json:"name"`
			Scopes        string     `json:"scopes"`
			Tenant        string     `json:"tenant,omitempty"`
			Conversations []string   `json:"conversations,omitempty"`
			MaxBytes      int64      `json:"max_bytes,omitempty"`
			Created       time.Time  `json:"created"`
			Revoked       *time.Time `json:"revoked,omitempty"`
		}
		out := make([]keyJSON, len(keys))
		for i, k := range keys {
			out[i] = keyJSON{k.ID, k.Name, k.Scopes.String(), k.Tenant, k.Conversations, k.MaxBytes, k.Created, k.Revoked}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "ID\tNAME\tSCOPES\tREACHES\tCREATED\tREVOKED")
	for _, k := range keys {
		revoked := "-"
		if k.Revoked != nil {
			revoked = k.Revoked.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Scopes, binding(k), k.Created.UTC().Format(time.RFC3339), revoked)
	}
	return nil
}

func keysRevoke(e *env, args []string) error {
	f := newFlags(e, "keys revoke", "ID")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if f.NArg() != 1 {
		return usagef("keys revoke takes one key ID (convfiles keys list shows them)")
	}
	ix, err := openKeys(cfg)
	if err != nil {
		return err
	}
	defer ix.Close()
	if err := ix.RevokeKey(context.Background(), f.Arg(0), time.Now()); err != nil {
		return fmt.Errorf("%s", files.MessageOf(err))
	}
	fmt.Fprintf(e.stderr, "revoked key %s: it and every token it minted are refused from now on\n", f.Arg(0))
	return nil
}

func keysSigningKey(e *env, args []string) error {
	f := newFlags(e, "keys signing-key", "")
	id := f.String("id", "k"+time.Now().UTC().Format("20060102"), "the key's ID, named by what it signs")
	if _, err := f.parse(args); err != nil {
		return err
	}
	k, err := signing.Generate(*id)
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintln(e.stdout, k.String())
	return nil
}
