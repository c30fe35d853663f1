package export

import (
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	for _, f := range Formats {
		os.WriteFile("/tmp/exp/sample"+f.Ext()+"."+string(f), write(t, f, sample()), 0o644)
	}
	o := testOptions(); o.Profile = ExcelEU; o2 := o; o2.Profile = Xero; o3 := o; o3.Profile = QuickBooks; o4 := o; o4.Profile=""; o4.IntuBID = "12345"
	for _, op := range []Options{o, o2, o3} {
		f, _ := os.Create("/tmp/exp/sample." + string(op.Profile) + ".csv")
		Write(f, CSV, op, sample()); f.Close()
	}
	f, _ := os.Create("/tmp/exp/bid.qbo"); Write(f, QBO, o4, sample()); f.Close()
}
