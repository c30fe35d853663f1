package store

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Argon2id's cost, OWASP's first choice: 19 MiB, two passes, one lane.
// A hash carries its own parameters, so raising them later leaves
// existing passwords working.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
)

// MinPassword is the fewest characters a password may have.
const MinPassword = 10

// ErrWeakPassword means a password is too short (or too long) to take.
var ErrWeakPassword = fmt.Errorf("a password needs %d to 256 characters", MinPassword)

// HashPassword hashes a password with Argon2id and a random salt, in the
// PHC string form ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
func HashPassword(password string) (string, error) {
	if n := len([]rune(password)); n < MinPassword || len(password) > 256 {
		return "", ErrWeakPassword
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	sum := argonKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(sum)), nil
}

// CheckPassword says whether a password matches a hash from HashPassword,
// in constant time. An empty or malformed hash matches nothing.
func CheckPassword(hash, password string) bool {
	ok, _ := checkPassword(hash, password)
	return ok
}

// dummyHash is checked against when there is no member, so that a
// sign-in for an unknown address costs what one for a known address does.
// It is made on first use: a worker process never needs it.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword("no member has this password")
	return h
})

// CheckNoPassword spends the time CheckPassword would, and fails.
func CheckNoPassword(password string) { _, _ = checkPassword(dummyHash(), password) }

func checkPassword(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("not an argon2id hash")
	}
	var version int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errors.New("unknown argon2 version")
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 1<<20 || t == 0 || t > 16 || p == 0 {
		return false, errors.New("bad argon2 parameters")
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil {
		return false, err
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errors.New("bad argon2 hash")
	}
	got := argonKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// argonKey is argon2.IDKey, and then gives its memory (argonMemory, 19
// MiB of blocks) back to the system at once. Left to Go's background
// scavenger, a server that had hashed one password (its first run's
// admin, a sign-in) stayed ~20 MB larger for minutes: 46 MB idle before
// passwords, 69 MB after. A hash costs ~20–30 ms of CPU; the collection
// that returns its memory costs a few percent of that on a server's
// heap, and sign-ins are throttled.
func argonKey(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
	key := argon2.IDKey(password, salt, time, memory, threads, keyLen)
	debug.FreeOSMemory()
	return key
}

// NewPassword makes a random password of 20 base62 characters (about 119
// bits), for an administrator to hand on.
func NewPassword() (string, error) { return randomString("", 20) }
