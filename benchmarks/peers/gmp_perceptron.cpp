// An exact rational perceptron in C++ with GMP's mpq_class, written for benchmarks/peer.py as a stand-in for
// the CoqPerceptron benchmark's C++ perceptron (which uses boost::rational over GMP integers): the same run
// (a constant 1 prepended, labels 0/1 read as -1/+1, an update when y * w.x <= 0, epochs until one makes no
// mistake). Input on stdin: n, d, then for each sample a line with its label and d lines of p/q values.
// It loops forever on data that are not linearly separable, as its model does.
#include <gmpxx.h>
#include <iostream>
#include <string>
#include <vector>
int main() {
  std::size_t n, d; std::cin >> n >> d;
  std::vector<std::vector<mpq_class>> X; std::vector<int> y; std::string line;
  for (std::size_t i = 0; i < n; ++i) {
    int l; std::cin >> l; y.push_back(2 * l - 1);
    std::vector<mpq_class> v(1, mpq_class(1));
    for (std::size_t j = 0; j < d; ++j) { std::cin >> line; mpq_class q(line); q.canonicalize(); v.push_back(q); }
    X.push_back(v);
  }
  std::vector<mpq_class> w(d + 1, mpq_class(0));
  std::size_t epochs = 0, updates = 0; bool clean;
  do {
    ++epochs; clean = true;
    for (std::size_t i = 0; i < n; ++i) {
      mpq_class s(0);
      for (std::size_t j = 0; j <= d; ++j) s += w[j] * X[i][j];
      if (s * y[i] <= 0) { for (std::size_t j = 0; j <= d; ++j) w[j] += X[i][j] * y[i]; clean = false; ++updates; }
    }
  } while (!clean);
  std::cerr << "epochs " << epochs << " updates " << updates << std::endl;
  return 0;
}
