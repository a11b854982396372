package bytesize

import "testing"

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 50 << 20: "50 MiB", 1 << 30: "1 GiB"} {
		if got := Format(n); got != want {
			t.Errorf("Format(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "1048576": 1 << 20, "512 KiB": 512 << 10, "10MiB": 10 << 20, " 2 GiB ": 2 << 30, "1TiB": 1 << 40, "7 B": 7} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "ten", "10KB", "1.5GiB", "-1", "GiB", "9999999999TiB", "10 MiB extra"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}
