// Package plainfile reads and writes regular files whole, with the system
// calls alone.
//
// os.Open and os.Create make every file a candidate for Go's network
// poller: on Linux each costs four fcntl calls and an epoll_ctl that a
// regular file refuses, beside the open itself, as much again as reading a
// small file; os.NewFile, which leaves a descriptor off the poller, still
// asks for its flags with one fcntl. A build reads and writes about three
// files a page (the page, its formulas and its code from the caches), so
// on Linux ReadFile and WriteFile make only the calls the work needs:
// open, fstat, read and close; open, write and close. Elsewhere they are
// built on os.Open and os.OpenFile.
package plainfile
