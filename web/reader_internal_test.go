package web

import "testing"

func TestReaderURL(t *testing.T) {
	t.Parallel()
	for ref, want := range map[string]string{
		"John 3:16-18":         "/read/john/3#v16",
		"John 3:16":            "/read/john/3#v16",
		"1 Corinthians 13:4-7": "/read/1-corinthians/13#v4",
		"Song of Solomon 2:1":  "/read/song-of-solomon/2#v1",
		"Psalm 23":             "/read/psalms/23",
		"Ruth 4:13":            "/read/ruth/4#v13",
		"Matthew 5:1-3":        "/read/matthew/5#v1",
		"Genesis 1:31-2:3":     "/read/genesis/1#v31",
		"not a reference":      "",
	} {
		if got := readerURL(ref); got != want {
			t.Errorf("readerURL(%q) = %q, want %q", ref, got, want)
		}
	}
}
