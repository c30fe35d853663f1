package source

// Meta is what a file's metadata says of it (a PDF's Info dictionary):
// empty fields where it says nothing.
type Meta struct {
	Title, Author, Creator, Producer string
}
