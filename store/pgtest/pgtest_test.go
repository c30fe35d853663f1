package pgtest

import (
	"database/sql"
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestServerTakesQueries starts the server and uses two databases of it.
func TestServerTakesQueries(t *testing.T) {
	for range 2 {
		db, err := sql.Open("pgx", Database(t))
		if err != nil {
			t.Fatal(err)
		}
		var v string
		if err := db.QueryRow("SHOW server_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.QueryRow("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&n); err != nil || n != 0 {
			t.Errorf("a new database holds %d tables (%v), want none", n, err)
		}
		t.Logf("PostgreSQL %s", v)
		db.Close()
	}
}
