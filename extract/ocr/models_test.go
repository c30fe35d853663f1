package ocr

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestInstallModelsOnce: the models are written into the shared directory
// once; a later process finds them there and writes nothing, and a file
// that differs (another version's model, a damaged copy) is replaced.
func TestInstallModelsOnce(t *testing.T) {
	base := t.TempDir()
	dir, err := installModels(base, []string{"eng", "fra"})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(base, "tessdata"); dir != want {
		t.Fatalf("dir = %s, want %s", dir, want)
	}
	eng := filepath.Join(dir, "eng.traineddata")
	want, _ := models.ReadFile("tessdata/eng.traineddata")
	if got, err := os.ReadFile(eng); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("eng.traineddata: %d bytes (err %v), want the embedded %d", len(got), err, len(want))
	}
	before, err := os.Stat(eng)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := installModels(base, []string{"eng"}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(eng)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Errorf("eng.traineddata was written again although it was whole")
	}
	if err := os.WriteFile(eng, []byte("damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := installModels(base, []string{"eng"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(eng); !bytes.Equal(got, want) {
		t.Errorf("a damaged eng.traineddata was not replaced: %d bytes", len(got))
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 2 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("tessdata holds %v, want only eng and fra (no temporary files left)", names)
	}
}

// TestTessClientUsesModelDir: a process told where the models live loads
// them from there and leaves no private copy in the temporary directory.
func TestTessClientUsesModelDir(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv(ModelDirEnv, dir)
	t.Setenv("TMPDIR", tmp)
	c, cleanup, err := newTessClient("eng")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.TessdataPrefix != filepath.Join(dir, "tessdata") {
		t.Errorf("client reads models from %s, want %s", c.TessdataPrefix, filepath.Join(dir, "tessdata"))
	}
	g, _ := renderFixture(t, "en_signed_amount", 100)
	if err := c.SetImageFromBytes(encodePGM(g)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Text(); err != nil {
		t.Fatalf("the model in %s does not load: %v", dir, err)
	}
	cleanup()
	if _, err := os.Stat(filepath.Join(dir, "tessdata", "eng.traineddata")); err != nil {
		t.Errorf("the shared model is gone after the client's cleanup: %v", err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("a private model copy was made in %s: %d entries", tmp, len(ents))
	}
}
