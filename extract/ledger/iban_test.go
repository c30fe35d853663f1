package ledger

import "testing"

// TestIBAN checks the mod-97 test that tells an IBAN from another number.
func TestIBAN(t *testing.T) {
	for in, want := range map[string]string{
		"DE89 3704 0044 0532 0130 00": "DE89370400440532013000",
		"GB29 NWBK 6016 1331 9268 19": "GB29NWBK60161331926819",
		"gb29nwbk60161331926819":      "GB29NWBK60161331926819",
		"GB29 NWBK 6016 1331 9268 18": "",
		"12-3456-7890":                "",
		"****5678":                    "",
		"DE89 3704 0044 **** 0130 00": "",
		"":                            "",
	} {
		if got := IBAN(in); got != want {
			t.Errorf("IBAN(%q) = %q, want %q", in, got, want)
		}
	}
}
