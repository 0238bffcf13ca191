// Package sword reads the SWORD modules selah ingests, in pure Go: Bible
// texts in the zText format (the KJV and the WEB), the compressed lexicon
// format zLD (Nave's Topical Bible), and the OSIS markup of their entries.
// It knows the versifications those modules use and maps the WEB's onto
// the KJV's verse ids.
package sword

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Conf is a module's configuration file (mods.d/*.conf): its section name
// and its keys. Repeated keys keep their first value; selah reads none
// that repeat.
type Conf struct {
	Name   string
	values map[string]string
}

// Get returns the value of key, or "".
func (c Conf) Get(key string) string { return c.values[key] }

// parseConf reads one conf file. A file may hold several sections; only
// the first module section counts ([Globals] is skipped).
func parseConf(b []byte) (Conf, bool) {
	var c Conf
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' && strings.HasSuffix(line, "]") {
			name := line[1 : len(line)-1]
			if c.Name != "" {
				break
			}
			if name != "Globals" {
				c = Conf{Name: name, values: map[string]string{}}
			}
			continue
		}
		if c.Name == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if _, seen := c.values[k]; !seen {
			c.values[k] = strings.TrimSpace(v)
		}
	}
	return c, c.Name != ""
}

// findConf returns the configuration of module name in the SWORD library
// at dir. File names of confs vary (kjv.conf holds engKJV2006eb), so every
// conf is read and matched by section name, case-insensitively as SWORD
// does.
func findConf(dir, name string) (Conf, []byte, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "mods.d", "*.conf"))
	if err != nil {
		return Conf{}, nil, fmt.Errorf("sword: list confs: %w", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return Conf{}, nil, fmt.Errorf("sword: read conf: %w", err)
		}
		if c, ok := parseConf(b); ok && strings.EqualFold(c.Name, name) {
			return c, b, nil
		}
	}
	return Conf{}, nil, fmt.Errorf("sword: module %s not found in %s: %w", name, filepath.Join(dir, "mods.d"), os.ErrNotExist)
}

// dataPath resolves the conf's DataPath against the library root.
func (c Conf) dataPath(dir string) string {
	p := strings.TrimPrefix(c.Get("DataPath"), "./")
	return filepath.Join(dir, filepath.FromSlash(p))
}

// openConf finds module name's conf and checks that the module is one the
// given driver reads: that driver, zlib ("ZIP") compression, no cipher.
func openConf(dir, name, driver string) (Conf, []byte, error) {
	conf, raw, err := findConf(dir, name)
	if err != nil {
		return Conf{}, nil, err
	}
	if d := conf.Get("ModDrv"); !strings.EqualFold(d, driver) {
		return Conf{}, nil, fmt.Errorf("sword: %s uses driver %q, not %s", name, d, driver)
	}
	if c := conf.Get("CompressType"); c != "" && !strings.EqualFold(c, "ZIP") {
		return Conf{}, nil, fmt.Errorf("sword: %s uses compression %q, not ZIP", name, c)
	}
	if conf.Get("CipherKey") != "" {
		return Conf{}, nil, fmt.Errorf("sword: %s is enciphered", name)
	}
	return conf, raw, nil
}
