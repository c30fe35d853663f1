# Reads QIF files with Finance::QIF (Debian's libfinance-qif-perl), a
# reader the export did not write, and prints, as JSON, per file its
# records: the section each is in (header), and a transaction's date,
# amount and payee. It warns on stderr of fields it does not know (the
# account list's "/" and "$"), which the export tests ignore.
#
# Usage: perl qifread.pl FILE...
use strict;
use warnings;
use Finance::QIF;
use JSON::PP;

my %out;
for my $path (@ARGV) {
	my $qif = Finance::QIF->new(file => $path, record_separator => "\r\n");
	my @records;
	while (my $r = $qif->next) {
		push @records, {header => $r->{header}, date => $r->{date}, amount => $r->{transaction}, payee => $r->{payee}};
	}
	$out{$path} = \@records;
}
print JSON::PP->new->canonical->encode(\%out), "\n";
