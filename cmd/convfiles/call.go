package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"convfiles/auth"
	"convfiles/files"
	"convfiles/ops"
)

// cmdCall runs one operation of the table on a conversation, as every
// other door does: convfiles call --conversation ID OPERATION [ARGS].
// ARGS is one JSON object, or key=value pairs whose value is JSON when it
// parses as JSON and a string otherwise. The result is printed as JSON.
// Without an operation it lists them.
func cmdCall(e *env, args []string) error {
	f := newFlags(e, "call", "--conversation ID OPERATION [JSON | key=value...]")
	conv := f.String("conversation", "", "the conversation (required with an operation)")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if f.NArg() == 0 {
		return listOps(e)
	}
	op, ok := ops.Lookup(f.Arg(0))
	if !ok {
		return usagef("there is no operation %q; run convfiles call without one to list them", f.Arg(0))
	}
	if *conv == "" {
		return usagef("usage: convfiles call --conversation ID %s %s", op.Name, strings.Join(op.Params, " "))
	}
	input, err := callArgs(f.Args()[1:])
	if err != nil {
		return err
	}
	in, err := op.DecodeArgs(input, nil)
	if err != nil {
		return usagef("%s: %v", op.Name, err)
	}
	// A read works on what is there; a change may make the conversation
	// (and the store), as an agent's first write does.
	sp, done, err := openSpace(e, cfg, *conv, op.Effect != ops.Reads)
	if err != nil {
		return err
	}
	defer done()
	// The command line is the local user, who owns the data folder.
	res, err := op.Run(auth.NewContext(context.Background(), auth.Local), ops.Env{Space: sp}, in)
	if err != nil {
		if files.KindOf(err) == files.KindInternal {
			return err
		}
		return fmt.Errorf("%s: %s", files.KindOf(err), files.MessageOf(err))
	}
	return printJSON(e, res)
}

// callArgs is the JSON input of the command line's arguments.
func callArgs(args []string) (json.RawMessage, error) {
	if len(args) == 1 && strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
		return json.RawMessage(args[0]), nil
	}
	in := map[string]json.RawMessage{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, usagef("%q is not key=value: pass the input as one JSON object or as key=value pairs", a)
		}
		if json.Valid([]byte(v)) {
			in[k] = json.RawMessage(v)
			continue
		}
		s, _ := json.Marshal(v)
		in[k] = s
	}
	return json.Marshal(in)
}

// listOps prints the table: each operation, its effect and parameters.
func listOps(e *env) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "OPERATION\tEFFECT\tPARAMETERS")
	for _, op := range ops.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", op.Name, [...]string{"reads", "writes", "destroys"}[op.Effect], strings.Join(op.Params, " "))
	}
	return nil
}
