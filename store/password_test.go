package store

import (
	"strings"
	"testing"
)

// TestPasswords: Argon2id in the PHC form, salted, checked in constant
// time; short passwords and malformed or foreign hashes match nothing.
func TestPasswords(t *testing.T) {
	h1, err := HashPassword("a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := HashPassword("a long enough password")
	if !strings.HasPrefix(h1, "$argon2id$v=19$m=19456,t=2,p=1$") || h1 == h2 {
		t.Errorf("hashes %q and %q: want argon2id with its parameters, salted apart", h1, h2)
	}
	if !CheckPassword(h1, "a long enough password") || CheckPassword(h1, "a long enough passworD") || CheckPassword(h1, "") {
		t.Error("a hash matches the wrong password or not its own")
	}
	for _, pw := range []string{"", "short", "123456789", strings.Repeat("x", 257)} {
		if _, err := HashPassword(pw); err == nil {
			t.Errorf("HashPassword(%d characters) took it", len(pw))
		}
	}
	parts := strings.Split(h1, "$")
	for name, bad := range map[string]string{
		"empty":         "",
		"bcrypt":        "$2a$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01",
		"argon2i":       strings.Replace(h1, "argon2id", "argon2i", 1),
		"huge memory":   strings.Join([]string{"", parts[1], parts[2], "m=4194304,t=2,p=1", parts[4], parts[5]}, "$"),
		"no hash":       strings.Join([]string{"", parts[1], parts[2], parts[3], parts[4], ""}, "$"),
		"other version": strings.Replace(h1, "v=19", "v=16", 1),
		"garbled salt":  strings.Join([]string{"", parts[1], parts[2], parts[3], "!!!", parts[5]}, "$"),
	} {
		if CheckPassword(bad, "a long enough password") {
			t.Errorf("a %s hash matched", name)
		}
	}
}
